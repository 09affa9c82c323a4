import LumenModel
import Testing

@testable import LumenQuery

/// The size limits of a query: past them, an error at the column where the limit was crossed
/// rather than work that grows without bound in SQLite's planner.
@Suite struct QueryLimitTests {
  let parser = QueryParser()

  @Test func conjunctsUpToTheLimitParseAndLongOrChainsToo() throws {
    let limit = ExpressionParser.maximumConjuncts
    let query = Array(repeating: "title == \"a\"", count: limit).joined(separator: " && ")
    #expect(throws: Never.self) { try parser.parse(query) }
    let ranges = Array(repeating: "InRange(fileSize, 1, 2)", count: 5000).joined(separator: " || ")
    #expect(throws: Never.self) { try parser.parse(ranges) }
    // An || inside parentheses is one part of the && chain, however long.
    let grouped =
      "(" + Array(repeating: "title == \"a\"", count: 600).joined(separator: " || ")
      + ") && fileSize > 1"
    #expect(throws: Never.self) { try parser.parse(grouped) }
  }

  @Test func onePartTooManyIsAnErrorAtThatPart() throws {
    let limit = ExpressionParser.maximumConjuncts
    let term = "title == \"a\""
    let query = Array(repeating: term, count: limit + 5).joined(separator: " && ")
    let error = try #require(throws: QuerySyntaxError.self) { try parser.parse(query) }
    #expect(error.message == "query joins too many conditions with && (more than \(limit))")
    #expect(error.column == limit * (term.count + 4) + 1)
    // Parentheses do not hide a chain from SQLite, nor from the limit; the part too many is
    // found in the order written.
    let half = Array(repeating: term, count: limit / 2 + 1).joined(separator: " && ")
    let nested = "(\(half)) && (x == 1 || \(term)) && (\(half))"
      .replacingOccurrences(of: "x == 1", with: "fileSize == 1")
    let nestedError = try #require(throws: QuerySyntaxError.self) { try parser.parse(nested) }
    #expect(nestedError.message.contains("too many conditions with &&"))
    let second = nested.range(of: ") && (", options: .backwards)!.upperBound
    #expect(nestedError.column > nested.distance(from: nested.startIndex, to: second))
  }

  @Test func theTotalNumberOfConditionsIsBounded() throws {
    let limit = ExpressionParser.maximumConditions
    let query = Array(repeating: "fileSize == 1", count: limit + 1).joined(separator: " || ")
    let error = try #require(throws: QuerySyntaxError.self) { try parser.parse(query) }
    #expect(error.message == "query has too many conditions (more than \(limit))")
  }

  @Test func freeTextWordsHaveTheSameLimit() throws {
    let limit = ExpressionParser.maximumConjuncts
    let words = (0..<limit).map { "w\($0)" }
    #expect(try parser.parse(words.joined(separator: " ")) == .freeText(words))
    let more = (0..<(limit + 3)).map { "w\($0)" }
    let text = more.joined(separator: " ")
    let error = try #require(throws: QuerySyntaxError.self) { try parser.parse(text) }
    #expect(error.message == "query has too many words (more than \(limit))")
    let expected =
      text.distance(from: text.startIndex, to: text.range(of: " w\(limit) ")!.lowerBound) + 2
    #expect(error.column == expected)
  }
}
