import Foundation
import GRDB
import LumenTestSupport
import Testing

/// Whatever string reaches `lumen find`, the answer is results or an error that points at a
/// column, never a crash; and no query writes to the index: the query compiler binds every
/// value, so SQL hidden in a query is only ever text to compare with.
@Suite("Query input safety", .serialized)
struct QuerySafetyTests {
  static let hostile: [String] = [
    #"title == "x'; DROP TABLE item; --""#,
    #"title == 'x"; DELETE FROM item; --'"#,
    "x'); DELETE FROM item; --",
    "'; ATTACH DATABASE '/tmp/lumen-evil.sqlite' AS evil; CREATE TABLE evil.t(x); --",
    #"kMDItemFSName == "*" || 1=1 --"#,
    #"" OR 1=1 --"#,
    "1; PRAGMA writable_schema = 1; UPDATE sqlite_master SET sql = ''",
    "title == \"\\\"); DROP TABLE item; --\"",
    "fileName == \"*'||(SELECT load_extension('/tmp/x'))||'*\"",
    "kMDItemTitle == \"a\" && kMDItemTitle == 'b\" || \"c'",
    "title == \"%\" || title == \"_\" || title == \"[\"",
    "* == \"*\\u0000*\"",
    "(((((((((((", ")))))", "title ==", "== ==", "&&", "||||", "!", "!!!!!!",
    "title == \"unterminated", "\"\"", "''", "*", "* == *",
    "contentModificationDate > $time.now(-)", "contentModificationDate > $time.iso(garbage)",
    "contentModificationDate > $time.iso(99999-99-99)", "$time.today", "InRange(fileSize, 1, )",
    "InRange(", "fileSize == 1e99999", "fileSize == -0x", "fileSize == 18446744073709551616",
    "fileSize > NaN", "title == \"x\"cdwxyz", "title == \"x\"c\"d\"", "title =~ \"x\"",
    "nosuchattribute == 1", "kMDItemNoSuch == \"x\"", "title == [1, 2, 3]", "title in (1, 2)",
    "title == \"\u{0301}\u{0301}\u{0301}\"", "title == \"👩‍👩‍👧‍👦\"cd", "\u{202E}title == 1",
    "title\n==\n\"line\nbreaks\"", "\t\t\t", " ", "\u{FEFF}", "title == \u{FFFF}",
    String(repeating: "(", count: 100_000), String(repeating: "!", count: 50_000) + "true",
    "title == \"" + String(repeating: "*", count: 20_000) + "\"",
    "title == \"" + String(repeating: "\\", count: 10_001) + "\"",
    Array(repeating: "title == \"a\"", count: 3000).joined(separator: " && "),
    Array(repeating: "title == \"a\" || fileSize > 3", count: 1000).joined(separator: " && "),
    Array(repeating: "budget", count: 2000).joined(separator: " "),
    // At the limit of 256 parts joined by &&, in the forms that compile to the most SQL.
    Array(repeating: "title == \"*a*\"cd", count: 256).joined(separator: " && "),
    Array(repeating: "* == \"budget*\"cdw", count: 256).joined(separator: " && "),
    Array(repeating: "fileName == \"*x*\" || kind == \"y\"c", count: 256).joined(separator: " && "),
    Array(repeating: "!(contentTypeTree == \"public.image\")", count: 256).joined(
      separator: " && "),
    Array(repeating: "budget", count: 256).joined(separator: " "),
  ]

  /// Strings drawn from the query language's own characters and keywords, seeded.
  static func randomQueries(count: Int) -> [String] {
    let pieces = [
      "title", "fileSize", "kMDItemFSName", "==", "!=", "<", ">=", "&&", "||", "!", "(", ")",
      "\"", "'", "*", "\\", "c", "d", "w", "$time.now(", "$time.today(-1)", "InRange(", ",",
      "1", "-2.5e3", "0x1F", "true", "false", " ", "é", "\u{0}", ";", "--", "/*", "SELECT",
      "DROP TABLE item", "[", "]", "{", "}", "\n",
    ]
    var random = SeededRandom(seed: 5)
    return (0..<count).map { _ in
      (0..<Int.random(in: 1...14, using: &random)).map { _ in pieces.randomElement(using: &random)!
      }
      .joined()
    }
  }

  @Test func everyQueryGetsResultsOrAPositionedErrorAndNothingIsWritten() async throws {
    let lumen = try LumenProcess()
    defer { lumen.cleanUp() }
    let root = lumen.home.appendingPathComponent("tree").path
    try TestTree.make(at: root, folders: 3, files: 10, mediaCopies: 1)
    #expect(try await lumen.run(["index", "--db", lumen.database, root]).status == 0)
    // Close the books: the last connection folds the log into the main file.
    #expect(try IndexFile(path: lumen.database).integrity() == "ok")
    let before = try Data(contentsOf: URL(fileURLWithPath: lumen.database))
    // A connection held open across all the queries sees data_version move if anyone commits.
    let watcher = try DatabaseQueue(path: lumen.database)
    let versionBefore = try await watcher.read { db in
      try Int.fetchOne(db, sql: "PRAGMA data_version")
    }

    for query in Self.hostile + Self.randomQueries(count: 120) {
      let result = try await lumen.run(["find", "--db", lumen.database, "--", query])
      let shown = String(query.prefix(80))
      #expect(!result.signaled, "crashed on \(shown)")
      #expect(!result.stderr.contains("Fatal error"), "\(shown)")
      #expect([0, 2].contains(result.status), "\(shown): exit \(result.status) \(result.stderr)")
      if result.status == 2 {
        // The query on one line, a caret under the column, then what is wrong.
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        let caret = lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "^" }
        #expect(caret != nil, "\(shown): no position in \(result.stderr.prefix(300))")
      }
    }

    let versionAfter = try await watcher.read { db in
      try Int.fetchOne(db, sql: "PRAGMA data_version")
    }
    #expect(versionAfter == versionBefore, "no query committed anything")
    try watcher.close()
    #expect(try Data(contentsOf: URL(fileURLWithPath: lumen.database)) == before)
    #expect(!FileManager.default.fileExists(atPath: "/tmp/lumen-evil.sqlite"))
    let count = try await lumen.run(["find", "--db", lumen.database, "--count", "true"])
    #expect(count.output == "\(TestTree.entries(under: root).count)\n")
  }
}
