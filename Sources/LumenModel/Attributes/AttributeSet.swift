/// The typed attributes of one item, keyed by Core Spotlight name. An explicit removal (a nil
/// in Core Spotlight's update mode) is kept apart from "not mentioned", because an update merges
/// what it mentions and deletes what it sets to nil.
public struct AttributeSet: Sendable, Equatable {
  public private(set) var values: [String: [AttributeValue]] = [:]
  /// Keys set to nil: an update deletes them; a full index ignores them.
  public private(set) var removals: Set<String> = []
  /// Rows for the keys in `values`, so the store knows type and multiplicity of custom keys.
  public private(set) var keys: [String: AttributeKey] = [:]

  public init() {}

  public init(_ pairs: [(AttributeKey, AttributeValue)]) {
    for (key, value) in pairs { append(value, for: key) }
  }

  public var isEmpty: Bool { values.isEmpty && removals.isEmpty }

  /// The values of a key; nil when it has none.
  public subscript(key: AttributeKey) -> [AttributeValue]? {
    values[key.name]
  }

  /// The first value: the only one for single-valued attributes.
  public func first(_ key: AttributeKey) -> AttributeValue? { values[key.name]?.first }

  public func text(_ key: AttributeKey) -> String? { first(key)?.text }
  public func number(_ key: AttributeKey) -> Double? { first(key)?.number }

  /// Sets the values of a key. Values are converted to the key's type; those that cannot be
  /// converted are dropped rather than stored under the wrong type. A single-valued key keeps
  /// only the first. Setting nil or nothing records a removal.
  public mutating func set(_ newValues: [AttributeValue]?, for key: AttributeKey) {
    let converted = (newValues ?? []).compactMap { $0.converted(to: key.valueType) }
    guard !converted.isEmpty else {
      values[key.name] = nil
      keys[key.name] = nil
      removals.insert(key.name)
      return
    }
    values[key.name] = key.isMultiValued ? deduplicated(converted, key) : [converted[0]]
    keys[key.name] = key
    removals.remove(key.name)
  }

  public mutating func set(_ value: AttributeValue?, for key: AttributeKey) {
    set(value.map { [$0] }, for: key)
  }

  /// Adds a value (multi-valued) or sets it (single-valued), skipping empty text.
  public mutating func append(_ value: AttributeValue, for key: AttributeKey) {
    if case .text(let s) = value, s.isEmpty { return }
    guard let converted = value.converted(to: key.valueType) else { return }
    if key.isMultiValued, let existing = values[key.name] {
      if !existing.contains(converted) { values[key.name] = existing + [converted] }
    } else {
      values[key.name] = [converted]
    }
    keys[key.name] = key
    removals.remove(key.name)
  }

  /// Removes a key without recording a removal.
  public mutating func forget(_ key: AttributeKey) {
    values[key.name] = nil
    keys[key.name] = nil
    removals.remove(key.name)
  }

  /// This set with `update` merged in: what it mentions replaces, what it removes goes.
  public func merging(_ update: AttributeSet) -> AttributeSet {
    var merged = self
    for name in update.removals {
      merged.values[name] = nil
      merged.keys[name] = nil
    }
    for (name, newValues) in update.values {
      merged.values[name] = newValues
      merged.keys[name] = update.keys[name]
    }
    merged.removals = []
    return merged
  }

  /// The keys with values, built-ins first in registry order, then custom keys by name.
  public var orderedKeys: [AttributeKey] {
    let builtIn = AttributeKey.builtIns.filter { values[$0.name] != nil }
    let custom = keys.values.filter(\.isCustom).sorted { $0.name < $1.name }
    return builtIn + custom
  }

  private func deduplicated(_ list: [AttributeValue], _ key: AttributeKey) -> [AttributeValue] {
    var seen = Set<AttributeValue>()
    return list.filter { seen.insert($0).inserted }
  }
}
