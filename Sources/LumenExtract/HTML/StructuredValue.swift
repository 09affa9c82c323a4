import Foundation

/// A JSON value, as microdata and JSON-LD items are shaped (extruct's output shape, so they can
/// be compared with it item by item and printed by `lumen extract --json`).
public enum StructuredValue: Sendable, Hashable, CustomStringConvertible {
  case string(String)
  case number(Double)
  case bool(Bool)
  case null
  case array([StructuredValue])
  case object([String: StructuredValue])

  /// Converts what `JSONSerialization` returns.
  init(json: Any) {
    switch json {
    case let string as String:
      self = .string(string)
    case let number as NSNumber:
      // JSONSerialization boxes true/false as the one NSNumber whose type encoding is "c".
      if String(cString: number.objCType) == "c" {
        self = .bool(number.boolValue)
      } else {
        self = .number(number.doubleValue)
      }
    case let array as [Any]:
      self = .array(array.map(StructuredValue.init(json:)))
    case let object as [String: Any]:
      self = .object(object.mapValues(StructuredValue.init(json:)))
    default:
      self = .null
    }
  }

  /// The value as `JSONSerialization` input.
  public var jsonObject: Any {
    switch self {
    case .string(let value): value
    case .number(let value): value
    case .bool(let value): value
    case .null: NSNull()
    case .array(let values): values.map(\.jsonObject)
    case .object(let members): members.mapValues(\.jsonObject)
    }
  }

  public var string: String? { if case .string(let value) = self { value } else { nil } }

  public subscript(key: String) -> StructuredValue? {
    if case .object(let members) = self { members[key] } else { nil }
  }

  /// The value as a list: itself for a single value, nothing for null.
  public var asList: [StructuredValue] {
    switch self {
    case .array(let values): values
    case .null: []
    default: [self]
    }
  }

  /// Compact JSON with sorted keys.
  public var description: String {
    let data = try? JSONSerialization.data(
      withJSONObject: jsonObject,
      options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
    return data.map { String(decoding: $0, as: UTF8.self) } ?? "\(self)"
  }
}
