/// Resolves attribute names (Core Spotlight, kMDItem, aliases, custom) to their registry rows.
/// The built-in registry is shared; an index extends it with the custom keys declared in it.
public struct AttributeRegistry: Sendable {
  public private(set) var keys: [AttributeKey]
  private var byName: [String: AttributeKey]

  public static let builtIn = AttributeRegistry(keys: AttributeKey.builtIns)

  public init(keys: [AttributeKey]) {
    self.keys = []
    self.byName = [:]
    for key in keys { insert(key) }
  }

  private mutating func insert(_ key: AttributeKey) {
    keys.append(key)
    for name in key.allNames where byName[name] == nil { byName[name] = key }
  }

  /// The row for any of an attribute's names; nil when no row answers to it.
  public func key(named name: String) -> AttributeKey? { byName[name] }

  /// Adds custom keys. A name declared again must keep its type and multiplicity.
  public func adding(_ customKeys: [AttributeKey]) throws(AttributeKeyError) -> AttributeRegistry {
    var copy = self
    for key in customKeys {
      if let existing = copy.byName[key.name] {
        guard existing.isCustom else { throw .builtInName(key.name) }
        guard existing.valueType == key.valueType, existing.isMultiValued == key.isMultiValued
        else { throw .conflictingDeclaration(key.name) }
        continue
      }
      copy.insert(key)
    }
    return copy
  }

  /// The attributes free text and `*` look in.
  public var searchableByDefault: [AttributeKey] {
    keys.filter { $0.isSearchableByDefault && $0.valueType == .text }
  }
}
