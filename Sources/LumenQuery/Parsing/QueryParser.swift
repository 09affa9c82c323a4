import Foundation
import LumenModel

/// The front end of the Spotlight / Core Spotlight query language: text in, a typed
/// `QueryExpression` out, or a `QuerySyntaxError` pointing at the column where it went wrong.
///
/// ```swift
/// let parser = QueryParser()
/// let query = try parser.parse(#"kMDItemNumberOfPages > 10 && authors == 'knuth*'c"#)
/// ```
///
/// Attribute names resolve through `registry` (Core Spotlight names, kMDItem names, aliases,
/// custom keys); values are typed as their attribute's type; `$time` values are resolved here,
/// against `now` in `timeZone`, with weeks starting on `firstWeekday` (1 = Sunday … 7 = Saturday).
///
/// A query that does not parse as an expression and contains none of `= < > ! & | ( )` outside
/// quotes is free text (`budget report`, `"quarterly budget" 2024`): `.freeText(terms)`, each
/// term a word or quoted phrase — see `FreeTextSplitter`. Otherwise the expression's error is
/// thrown. `true` and `false` alone are the constant expressions, not words.
public struct QueryParser: Sendable {
  public let registry: AttributeRegistry
  public let now: Date
  public let timeZone: TimeZone
  public let firstWeekday: Int

  public init(
    registry: AttributeRegistry = .builtIn, now: Date = Date(), timeZone: TimeZone = .current,
    firstWeekday: Int = Calendar.current.firstWeekday
  ) {
    self.registry = registry
    self.now = now
    self.timeZone = timeZone
    self.firstWeekday = firstWeekday
  }

  public func parse(_ text: String) throws(QuerySyntaxError) -> QueryExpression {
    let time = TimeValueResolver(now: now, timeZone: timeZone, firstWeekday: firstWeekday)
    do {
      var parser = try ExpressionParser(text, registry: registry, time: time)
      return try parser.parseQuery()
    } catch {
      if let terms = FreeTextSplitter.terms(text) {
        guard terms.count <= ExpressionParser.maximumConjuncts else {
          throw QuerySyntaxError(
            query: text,
            column: Self.column(ofTerm: ExpressionParser.maximumConjuncts, terms, in: text),
            message: "query has too many words (more than \(ExpressionParser.maximumConjuncts))")
        }
        return .freeText(terms)
      }
      throw QuerySyntaxError(query: text, failure: error)
    }
  }

  /// The column (1-based, in characters) where free-text term number `index` starts.
  private static func column(ofTerm index: Int, _ terms: [String], in text: String) -> Int {
    var cursor = text.startIndex
    for (position, term) in terms[...index].enumerated() {
      guard let found = text.range(of: term, range: cursor..<text.endIndex) else { break }
      if position == index {
        return text.distance(from: text.startIndex, to: found.lowerBound) + 1
      }
      cursor = found.upperBound
    }
    return 1
  }
}
