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

  /// bench/fuzz, query (2026-11-21): the same NUL, in the first run of a pattern anchored at
  /// the start of the value (`* == "a == …\0…café"cd`): the anchored trigram lookup took the
  /// run whole. The run up to the NUL is still the value's start, and is what is looked up.
  @Test func aNulInsideTheStartOfAnAnchoredPatternIsSearchedNotAnError() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await index.indexSearchableItems([
      item("title", [(.title, .text("abc\u{0}def"))]),
      item("body", [(.textContent, .text("start\u{0}of the body"))]),
      item("other", [(.title, .text("abcdef"))]),
    ])
    let parser = QueryParser()
    for (query, expected) in [
      // The fuzzer's query, with its bytes that are not UTF-8 read as U+FFFD.
      ("* == \"a == \u{FFFD}\u{FFFD}\u{0E}\u{0}\u{0}\u{0}\u{FFFD}\u{FFFD}café\"cd", 0),
      ("* == \"abc\u{0}def\"", 1), ("* == \"abc\u{0}def\"cd", 1), ("* == \"abc\u{0}d*\"", 1),
      ("* == \"ab\u{0}def\"", 0), ("kMDItemTextContent == \"start\u{0}of*\"", 1),
      ("kMDItemTextContent == \"st\u{0}of*\"c", 0), ("* == \"start\u{0}of the body\"", 1),
    ] {
      await #expect(throws: Never.self, "\(String(reflecting: query))") {
        let found = try await index.count(try parser.parse(query))
        #expect(found == expected, "\(String(reflecting: query))")
      }
    }
  }
}
