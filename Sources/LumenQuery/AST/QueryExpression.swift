import LumenModel

/// A parsed Spotlight query. The parser resolves attribute names and `$time` values, so every
/// consumer (the SQL compiler, the in-memory evaluator the tests compare it with, live queries)
/// sees only typed, concrete values.
public indirect enum QueryExpression: Sendable, Equatable {
  case constant(Bool)
  case not(QueryExpression)
  case and(QueryExpression, QueryExpression)
  case or(QueryExpression, QueryExpression)
  /// `attr op value modifiers`
  case comparison(Comparison)
  /// `InRange(attr, min, max)`: min ≤ value ≤ max.
  case inRange(attribute: QueryAttribute, lower: QueryValue, upper: QueryValue)
  /// Plain words without operators: each must match some searchable-by-default attribute.
  case freeText([String])
}

/// What a comparison looks at.
public enum QueryAttribute: Sendable, Equatable {
  /// `*`: any searchable-by-default text attribute.
  case anySearchable
  case key(AttributeKey)
}

public enum ComparisonOperator: String, Sendable, Equatable, CaseIterable {
  case equal = "=="
  case notEqual = "!="
  case less = "<"
  case greater = ">"
  case lessOrEqual = "<="
  case greaterOrEqual = ">="
}

/// Spotlight's string modifiers, written after the value (`"paris"cd`) or in the legacy
/// `==[cd]` form.
public struct TextModifiers: OptionSet, Sendable, Hashable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }
  /// Case-insensitive.
  public static let caseInsensitive = TextModifiers(rawValue: 1 << 0)
  /// Diacritic-insensitive.
  public static let diacriticInsensitive = TextModifiers(rawValue: 1 << 1)
  /// Word-based: matches whole words of the value; a lower-to-upper case change is a boundary.
  public static let wordBased = TextModifiers(rawValue: 1 << 2)
  /// Tokenized: like word-based, answered from the full-text index.
  public static let tokenized = TextModifiers(rawValue: 1 << 3)
}

public struct Comparison: Sendable, Equatable {
  public var attribute: QueryAttribute
  public var op: ComparisonOperator
  public var value: QueryValue
  public var modifiers: TextModifiers

  public init(
    attribute: QueryAttribute, op: ComparisonOperator, value: QueryValue,
    modifiers: TextModifiers = []
  ) {
    self.attribute = attribute
    self.op = op
    self.value = value
    self.modifiers = modifiers
  }
}
