import Foundation
import LumenModel
import LumenQuery
import Testing

@testable import LumenStore

@Suite struct HostileQueryTests {
  private func titles(_ count: Int) -> [QueryExpression] {
    (0..<count).map { number in
      QueryExpression.comparison(
        Comparison(attribute: .key(.title), op: .equal, value: .text(.literal("t\(number)"))))
    }
  }

  /// Long `||` and `&&` chains (a script generating a query from a list of names) are compiled
  /// without recursion and without nesting SQL parentheses more than log₂ n deep.
  @Test func longChainsAreAnswered() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await index.indexSearchableItems([
      item("a", [(.title, .text("t7"))]), item("b", [(.title, .text("other"))]),
    ])
    let terms = titles(1_000)
    let any = terms.dropFirst().reduce(terms[0]) { .or($0, $1) }
    #expect(try await identifiers(index, any) == ["a"])
    let all = terms.prefix(900).dropFirst().reduce(terms[0]) { .and($0, $1) }
    #expect(try await identifiers(index, all) == [])
    let doubled = (0..<500).reduce(QueryExpression.constant(true)) { e, _ in .not(.not(e)) }
    #expect(try await index.count(doubled) == 2)
  }

  /// Queries beyond the compiler's limits (nesting, number of comparisons) are a clear error,
  /// at once, not a crash or minutes of planning.
  @Test func queriesBeyondTheLimitsAreAClearError() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    let terms = titles(3_000)
    let all = terms.dropFirst().reduce(terms[0]) { .and($0, $1) }
    await #expect(throws: SearchableIndexError.queryTooComplex(maximumNesting: 100)) {
      try await index.search(all)
    }

    let leaf = terms[0]
    let deep = (0..<300).reduce(leaf) { e, n in n % 2 == 0 ? .and(leaf, .or(leaf, e)) : .not(e) }
    await #expect(throws: SearchableIndexError.queryTooComplex(maximumNesting: 100)) {
      try await index.count(deep)
    }
  }
}
