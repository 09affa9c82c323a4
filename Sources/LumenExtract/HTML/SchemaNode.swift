/// One structured-data item reduced to what indexing needs, whichever syntax it came from:
/// its vocabulary (`schema` for schema.org, a sanitized prefix for others), its type names,
/// and its properties with text or nested-item values.
struct SchemaNode {
  enum Value {
    case text(String)
    case node(SchemaNode)
  }

  /// `schema` for schema.org; e.g. `n_whatwg_org` for `http://n.whatwg.org/work`; `microdata`
  /// or `jsonld` for untyped items.
  var vocabulary: String
  /// Short type names (`Event`), in the order the item lists them.
  var types: [String]
  var properties: [(name: String, values: [Value])]

  func values(_ name: String) -> [Value] {
    properties.first { $0.name == name }?.values ?? []
  }

  func texts(_ name: String) -> [String] {
    values(name).compactMap { if case .text(let text) = $0 { text } else { nil } }
  }

  func nodes(_ name: String) -> [SchemaNode] {
    values(name).compactMap { if case .node(let node) = $0 { node } else { nil } }
  }

  /// The first text value, or a nested item's `name` (an author given as a Person).
  func label(_ name: String) -> String? {
    for value in values(name) {
      switch value {
      case .text(let text) where !text.trimmingWhitespace().isEmpty:
        return text.trimmingWhitespace()
      case .node(let node):
        if let label = node.texts("name").first { return label.trimmingWhitespace() }
      default: continue
      }
    }
    return nil
  }

  var isSchemaOrg: Bool { vocabulary == "schema" }

  func hasType(_ name: String) -> Bool { isSchemaOrg && types.contains(name) }

  // MARK: From microdata

  /// Reads an extruct-shaped microdata item.
  init(microdata item: StructuredValue) {
    let typeURLs = (item["type"]?.asList ?? []).compactMap(\.string)
    let split = typeURLs.map(Self.splitTypeURL)
    vocabulary = split.first?.vocabulary ?? "microdata"
    types = split.map(\.name)
    properties = []
    guard case .object(let members)? = item["properties"] else { return }
    for name in members.keys.sorted() {
      let values = members[name]!.asList.compactMap { value -> Value? in
        switch value {
        case .string(let text): .text(text)
        case .object(let nested) where nested["properties"] != nil || nested["type"] != nil:
          .node(SchemaNode(microdata: value))
        case .object(let nested): nested["value"]?.string.map(Value.text)
        default: nil
        }
      }
      properties.append((Self.propertyName(name), values))
    }
  }

  /// `http://schema.org/Event` → (`schema`, `Event`); `http://n.whatwg.org/work` →
  /// (`n_whatwg_org`, `work`).
  static func splitTypeURL(_ url: String) -> (vocabulary: String, name: String) {
    let separator = url.lastIndex { $0 == "/" || $0 == "#" }
    guard let separator else { return ("schema", url) }
    let name = String(url[url.index(after: separator)...])
    var base = String(url[..<separator])
    for scheme in ["https://", "http://"] where base.hasPrefix(scheme) {
      base.removeFirst(scheme.count)
    }
    if base.hasPrefix("www.") { base.removeFirst(4) }
    if base == "schema.org" { return ("schema", name) }
    return (DottedKey.sanitize(base), name)
  }

  /// Property names may be absolute URLs in microdata (`http://schema.org/name`).
  static func propertyName(_ name: String) -> String {
    guard name.contains("://") else { return name }
    return splitTypeURL(name).name
  }

  // MARK: From JSON-LD

  /// Reads a JSON-LD object; `context` is the nearest `@context`, which decides whether bare
  /// type names are schema.org's.
  init(jsonLD object: [String: StructuredValue], schemaContext inherited: Bool) {
    let schemaContext = object["@context"].map(Self.isSchemaContext) ?? inherited
    let typeStrings = (object["@type"]?.asList ?? []).compactMap(\.string)
    let split = typeStrings.map { type -> (vocabulary: String, name: String) in
      if type.contains("://") { return Self.splitTypeURL(type) }
      if type.hasPrefix("schema:") { return ("schema", String(type.dropFirst(7))) }
      return (schemaContext ? "schema" : "jsonld", type)
    }
    vocabulary = split.first?.vocabulary ?? (schemaContext ? "schema" : "jsonld")
    types = split.map(\.name)
    properties = []
    for name in object.keys.sorted() where !name.hasPrefix("@") {
      let values = object[name]!.asList.compactMap { value in
        Self.jsonLDValue(value, schemaContext: schemaContext)
      }
      var property = name.hasPrefix("schema:") ? String(name.dropFirst(7)) : name
      if property.contains("://") { property = Self.propertyName(property) }
      properties.append((property, values))
    }
  }

  private static func jsonLDValue(_ value: StructuredValue, schemaContext: Bool) -> Value? {
    switch value {
    case .string(let text): return .text(text)
    case .number(let number): return .text(AttributeValueFormatting.number(number))
    case .bool(let flag): return .text(flag ? "true" : "false")
    case .object(let members):
      if let literal = members["@value"] {
        return jsonLDValue(literal, schemaContext: schemaContext)
      }
      if members.count == 1, let id = members["@id"]?.string { return .text(id) }
      return .node(SchemaNode(jsonLD: members, schemaContext: schemaContext))
    case .null, .array: return nil
    }
  }

  static func isSchemaContext(_ context: StructuredValue) -> Bool {
    switch context {
    case .string(let text): return text.contains("schema.org")
    case .array(let values): return values.contains(where: isSchemaContext)
    case .object(let members):
      return members["@vocab"]?.string?.contains("schema.org") == true
        || members.values.contains { $0.string?.contains("schema.org") == true }
    default: return false
    }
  }
}

/// Numbers as text the way `lumen show` prints them (no `.0` on whole numbers).
enum AttributeValueFormatting {
  static func number(_ value: Double) -> String {
    if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
  }
}
