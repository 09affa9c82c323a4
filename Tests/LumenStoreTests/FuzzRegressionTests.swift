import Foundation
import LumenModel
import LumenQuery
import Testing

@testable import LumenStore

/// Findings of bench/fuzz in the query path, each kept fixed.
@Suite struct StoreFuzzRegressionTests {
  /// bench/fuzz, query: a NUL inside a text value ended the FTS5 query string the trigram
  /// lookup binds ("unterminated string"). NUL cannot come from a command line, but it can
  /// from a program using the library.
  @Test func aNulInsideATextValueIsSearchedNotAnError() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await index.indexSearchableItems([
      item("a", [(.authors, .text("knuth")), (.title, .text("before\u{0}after words"))])
    ])
    let parser = QueryParser()
    // The fuzzer's query: the trigram lookup runs on the pieces around the NULs.
    let found = try parser.parse("authors == \"k\u{0}\u{0}nuth*\"c")
    #expect(try await index.count(found) == 0)
    for query in [
      "title == \"*ore\u{0}aft*\"", "title == \"*\u{0}\u{0}\u{0}*\"cd", "* == \"*before\u{0}*\"w",
      "authors == \"\u{0}knuth\u{0}\"",
    ] {
      // An answer, whatever it is: never an SQL error.
      await #expect(throws: Never.self, "\(String(reflecting: query))") {
        _ = try await index.count(try parser.parse(query))
      }
    }
    #expect(try await index.count(try parser.parse("authors == \"knu*\"")) == 1)
  }
}
