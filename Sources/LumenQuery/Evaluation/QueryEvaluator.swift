import Foundation
import LumenModel

/// The reference meaning of a query: evaluates an AST against one item's attributes, item by
/// item, in the plainest way. The store never answers queries this way; it compiles them to SQL,
/// and property tests check that SQL against this.
///
/// Semantics:
/// - A comparison or `InRange` on an attribute the item lacks is false — for every operator,
///   `!=` included (Spotlight's semantics). So `!(a == x)` holds for an item without `a`, while
///   `a != x` does not.
/// - A multi-valued attribute satisfies `==`, an ordering or `InRange` when ANY value does, and
///   `!=` when ANY value differs (so `keywords != "a"` holds for ["a", "b"]).
/// - `*` (any searchable attribute) means: some value of some searchable-by-default text
///   attribute of `registry` satisfies the comparison, with the same ANY rule.
/// - Text `==`/`!=` use `TextMatcher` (wildcards, `c d w t`). Text orderings compare with
///   `TextOrdering` — code point order after `c`/`d` folding, the same as SQLite's BINARY
///   collation on UTF-8. Numbers and dates compare numerically; booleans only with `==`/`!=`.
/// - `InRange(a, min, max)` is min ≤ value ≤ max, both ends inclusive, text unfolded.
/// - A value of another type than the query's (an AST built by hand) never matches.
/// - `.freeText(terms)`: every term must match some value of some searchable-by-default text
///   attribute, as `TextMatcher.freeTextTerm` defines (the term's words as a contiguous run of
///   the value's words, case- and diacritic-insensitively, the last word as a prefix: `"w*"cdw`).
///   A term without word characters constrains nothing.
public struct QueryEvaluator: Sendable {
  public let registry: AttributeRegistry
  private let searchableByDefault: [AttributeKey]

  public init(registry: AttributeRegistry = .builtIn) {
    self.registry = registry
    self.searchableByDefault = registry.searchableByDefault
  }

  public func matches(_ expression: QueryExpression, _ attributes: AttributeSet) -> Bool {
    switch expression {
    case .constant(let value): return value
    case .not(let operand): return !matches(operand, attributes)
    case .and(let left, let right): return matches(left, attributes) && matches(right, attributes)
    case .or(let left, let right): return matches(left, attributes) || matches(right, attributes)
    case .comparison(let comparison):
      let test = ValueTest(comparison)
      return values(of: comparison.attribute, in: attributes).contains { test.accepts($0) }
    case .inRange(let attribute, let lower, let upper):
      return values(of: attribute, in: attributes).contains {
        Self.inRange($0, lower: lower, upper: upper)
      }
    case .freeText(let terms):
      let texts = values(of: .anySearchable, in: attributes).compactMap(\.text)
      return terms.allSatisfy { term in
        guard let matcher = TextMatcher.freeTextTerm(term) else { return true }
        return texts.contains { matcher.matches($0) }
      }
    }
  }

  private func values(of attribute: QueryAttribute, in attributes: AttributeSet)
    -> [AttributeValue]
  {
    switch attribute {
    case .key(let key): return attributes[key] ?? []
    case .anySearchable: return searchableByDefault.flatMap { attributes[$0] ?? [] }
    }
  }

  private static func inRange(_ value: AttributeValue, lower: QueryValue, upper: QueryValue)
    -> Bool
  {
    guard let low = ValueTest.order(value, lower, modifiers: []),
      let high = ValueTest.order(value, upper, modifiers: [])
    else { return false }
    return low >= 0 && high <= 0
  }
}

/// One comparison, prepared once (its text matcher compiled) and applied to each value.
private struct ValueTest {
  let comparison: Comparison
  let matcher: TextMatcher?

  init(_ comparison: Comparison) {
    self.comparison = comparison
    if case .text(let pattern) = comparison.value,
      comparison.op == .equal || comparison.op == .notEqual
    {
      matcher = TextMatcher(pattern: pattern, modifiers: comparison.modifiers)
    } else {
      matcher = nil
    }
  }

  func accepts(_ value: AttributeValue) -> Bool {
    if let matcher {
      guard case .text(let text) = value else { return false }
      return matcher.matches(text) == (comparison.op == .equal)
    }
    if case .bool = comparison.value, comparison.op != .equal, comparison.op != .notEqual {
      return false
    }
    guard let order = Self.order(value, comparison.value, modifiers: comparison.modifiers) else {
      return false
    }
    switch comparison.op {
    case .equal: return order == 0
    case .notEqual: return order != 0
    case .less: return order < 0
    case .greater: return order > 0
    case .lessOrEqual: return order <= 0
    case .greaterOrEqual: return order >= 0
    }
  }

  /// The sign of `value` − `literal`; nil when they cannot be compared (other types, a text
  /// pattern with wildcards, a NaN).
  static func order(_ value: AttributeValue, _ literal: QueryValue, modifiers: TextModifiers)
    -> Int?
  {
    switch (value, literal) {
    case (.text(let text), .text(let pattern)):
      guard let literalText = pattern.literalText else { return nil }
      return TextOrdering.compare(text, literalText, modifiers: modifiers)
    case (.number(let number), .number(let other)):
      return sign(number, other)
    case (.date(let date), .date(let other)):
      return sign(date.timeIntervalSinceReferenceDate, other.timeIntervalSinceReferenceDate)
    case (.bool(let bool), .bool(let other)):
      return bool == other ? 0 : (bool ? 1 : -1)
    default:
      return nil
    }
  }

  private static func sign(_ a: Double, _ b: Double) -> Int? {
    if a < b { return -1 }
    if a > b { return 1 }
    return a == b ? 0 : nil
  }
}
