import Foundation
import LumenModel

/// Turns one line of `lumen items add` input into a `SearchableItem`:
/// `{"id": …, "domain": …, "expirationDate": …, "isUpdate": …, "attributes": {…}}`, attributes
/// named by Core Spotlight or kMDItem name. A name the registry does not know becomes a custom
/// key typed by its JSON value (Core Spotlight's `CSCustomAttributeKey`), so programs can add
/// their own attributes without a schema step.
struct ItemLineDecoder {
  var registry: AttributeRegistry

  struct LineError: Error, CustomStringConvertible {
    let line: Int
    let message: String
    var description: String { "line \(line): \(message)" }
  }

  /// Decodes a line; `declared` collects the custom keys the line introduced.
  mutating func decode(_ text: Substring, line: Int) throws(LineError) -> SearchableItem {
    let json: JSONInput
    do {
      json = try JSONDecoder().decode(JSONInput.self, from: Data(text.utf8))
    } catch {
      throw LineError(line: line, message: "not valid JSON")
    }
    guard case .object(let fields) = json else {
      throw LineError(line: line, message: "expected a JSON object")
    }
    let known: Set<String> = ["id", "domain", "expirationDate", "isUpdate", "attributes"]
    if let unknown = fields.keys.sorted().first(where: { !known.contains($0) }) {
      throw LineError(line: line, message: "unknown field '\(unknown)'")
    }
    guard case .string(let id)? = fields["id"], !id.isEmpty else {
      throw LineError(line: line, message: "'id' must be a non-empty string")
    }
    var item = SearchableItem(uniqueIdentifier: id)
    switch fields["domain"] {
    case .string(let domain)?: item.domainIdentifier = domain
    case nil, .null?: break
    default: throw LineError(line: line, message: "'domain' must be a string")
    }
    switch fields["expirationDate"] {
    case .string(let text)?:
      guard let date = ISO8601Dates.parse(text) else {
        throw LineError(line: line, message: "'expirationDate' is not an ISO-8601 date")
      }
      item.expirationDate = date
    case .number(let seconds)?: item.expirationDate = Date(timeIntervalSinceReferenceDate: seconds)
    case nil, .null?: break
    default: throw LineError(line: line, message: "'expirationDate' must be an ISO-8601 string")
    }
    switch fields["isUpdate"] {
    case .bool(let flag)?: item.isUpdate = flag
    case nil, .null?: break
    default: throw LineError(line: line, message: "'isUpdate' must be true or false")
    }
    switch fields["attributes"] {
    case .object(let attributes)?:
      for name in attributes.keys.sorted() {
        try decodeAttribute(name, attributes[name]!, into: &item.attributeSet, line: line)
      }
    case nil, .null?: break
    default: throw LineError(line: line, message: "'attributes' must be an object")
    }
    return item
  }

  private mutating func decodeAttribute(
    _ name: String, _ value: JSONInput, into set: inout AttributeSet, line: Int
  ) throws(LineError) {
    let key = try resolve(name, value, line: line)
    if case .null = value {
      set.set(nil as [AttributeValue]?, for: key)
      return
    }
    let elements: [JSONInput]
    if case .array(let list) = value {
      guard key.isMultiValued || list.count <= 1 else {
        throw LineError(line: line, message: "'\(name)' holds one value, not a list")
      }
      elements = list
    } else {
      elements = [value]
    }
    var values: [AttributeValue] = []
    for element in elements {
      let raw: AttributeValue
      switch element {
      case .string(let s): raw = .text(s)
      case .number(let n): raw = .number(n)
      case .bool(let b): raw = .bool(b)
      default: throw LineError(line: line, message: "'\(name)' has a value of the wrong kind")
      }
      guard let converted = raw.converted(to: key.valueType) else {
        throw LineError(
          line: line, message: "'\(name)' expects a \(key.valueType.rawValue), got \(raw)")
      }
      values.append(converted)
    }
    set.set(values, for: key)
  }

  private mutating func resolve(_ name: String, _ value: JSONInput, line: Int) throws(LineError)
    -> AttributeKey
  {
    if let key = registry.key(named: name) { return key }
    var sample = value
    var multiValued = false
    if case .array(let list) = value {
      multiValued = true
      sample = list.first ?? .string("")
    }
    let type: AttributeValueType
    switch sample {
    case .number: type = .number
    case .bool: type = .bool
    default: type = .text
    }
    do {
      let key = try AttributeKey.custom(name, valueType: type, multiValued: multiValued)
      registry = try registry.adding([key])
      return key
    } catch {
      throw LineError(line: line, message: error.description)
    }
  }
}
