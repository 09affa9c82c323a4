import Foundation
import Testing

/// The index-your-own-items path end to end through the real binary: `items add` → `find` →
/// `show` → `items delete`, as a program or a shell script would drive it.
@Suite struct ItemsAndFindTests {
  static let items = """
    {"id": "doc-1", "domain": "mail.inbox", "attributes": {"title": "Über budget report", "kMDItemNumberOfPages": 12, "authors": ["Knuth, Donald", "Leslie Lamport"], "contentCreationDate": "2024-01-02T03:04:05Z", "com_example_rank": 3}}
    {"id": "doc-2", "domain": "mail", "attributes": {"title": "Holiday photos", "pageCount": 2, "authors": ["Ada Lovelace"]}}
    {"id": "doc-3", "domain": "mailbox", "attributes": {"title": "Budgets of 2023", "pageCount": 40}}
    {"id": "/tmp/lumen-cli/file one.txt", "attributes": {"path": "/tmp/lumen-cli/file one.txt", "fileName": "file one.txt", "fileSize": 100}}

    """

  func withIndex(_ body: (LumenProcess) async throws -> Void) async throws {
    let lumen = try LumenProcess()
    defer { lumen.cleanUp() }
    let added = try await lumen.run(
      ["items", "add", "--db", lumen.database, "--client-state", "upto:4", "-"],
      stdin: Data(Self.items.utf8))
    #expect(added.status == 0, "\(added.stderr)")
    try await body(lumen)
  }

  @Test func spotlightQueriesSelectTheRightItems() async throws {
    try await withIndex { lumen in
      let cases: [(String, [String])] = [
        ("kMDItemNumberOfPages > 10 && authors == 'knuth*'c", ["doc-1"]),
        ("title == \"uber*\"cd", ["doc-1"]),
        ("title == \"*budget*\"c", ["doc-1", "doc-3"]),
        ("InRange(pageCount, 2, 12)", ["doc-1", "doc-2"]),
        ("com_example_rank >= 3", ["doc-1"]),
        ("fileSize == 100", ["/tmp/lumen-cli/file one.txt"]),
        // `!` negates: an item without pageCount fails `pageCount > 1`, so it matches its negation.
        ("!(pageCount > 1)", ["/tmp/lumen-cli/file one.txt"]),
      ]
      for (query, expected) in cases {
        let result = try await lumen.run(["find", "--db", lumen.database, query])
        #expect(result.status == 0, "\(query): \(result.stderr)")
        #expect(Set(result.lines) == Set(expected), "\(query)")
      }
    }
  }

  @Test func countNulAndJSONOutputs() async throws {
    try await withIndex { lumen in
      let count = try await lumen.run(["find", "--db", lumen.database, "--count", "pageCount > 1"])
      #expect(count.output == "3\n")
      let nul = try await lumen.run([
        "find", "--db", lumen.database, "-0", "--sort", "pageCount", "pageCount > 1",
      ])
      #expect(nul.stdout == Data("doc-2\0doc-1\0doc-3\0".utf8))
      let json = try await lumen.run([
        "find", "--db", lumen.database, "--json", "--attr", "pageCount", "--attr", "authors",
        "--attr", "contentCreationDate", "title == 'Über*'",
      ])
      #expect(
        json.lines == [
          #"{"id":"doc-1","pageCount":12,"authors":["Knuth, Donald","Leslie Lamport"],"contentCreationDate":"2024-01-02T03:04:05Z"}"#
        ])
    }
  }

  @Test func freeTextIsRankedAndNeedsEveryWord() async throws {
    try await withIndex { lumen in
      let result = try await lumen.run(["find", "--db", lumen.database, "budget"])
      #expect(Set(result.lines) == ["doc-1", "doc-3"])
      let both = try await lumen.run(["find", "--db", lumen.database, "budget", "report"])
      #expect(both.lines == ["doc-1"])
    }
  }

  @Test func malformedQueryShowsACaretAndExitsTwo() async throws {
    try await withIndex { lumen in
      let result = try await lumen.run([
        "find", "--db", lumen.database, "pageCount > 1 && nosuch == 2",
      ])
      #expect(result.status == 2)
      #expect(
        result.stderr == """
          pageCount > 1 && nosuch == 2
                           ^
          unknown attribute 'nosuch'

          """)
      #expect(result.stdout.isEmpty)
    }
  }

  @Test func aMissingIndexIsAClearErrorAndAQueryTypoStillExitsTwo() async throws {
    let lumen = try LumenProcess()
    defer { lumen.cleanUp() }
    let missing = try await lumen.run(["find", "--db", lumen.database, "title == 'x'"])
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("no index at"))
    #expect(!FileManager.default.fileExists(atPath: lumen.database))
    let typo = try await lumen.run(["find", "--db", lumen.database, "title == "])
    #expect(typo.status == 2)
  }

  @Test func showPrintsEveryAttributeAsJSONAndText() async throws {
    try await withIndex { lumen in
      let json = try await lumen.run(["show", "--db", lumen.database, "--json", "doc-1"])
      let object = try #require(
        try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
      #expect(object["id"] as? String == "doc-1")
      #expect(object["domain"] as? String == "mail.inbox")
      #expect(object["pageCount"] as? Int == 12)
      #expect(object["authors"] as? [String] == ["Knuth, Donald", "Leslie Lamport"])
      #expect(object["com_example_rank"] as? Int == 3)
      let text = try await lumen.run(["show", "--db", lumen.database, "--name", "title", "doc-2"])
      #expect(text.output.contains(#"title                    = "Holiday photos""#))
      let unknown = try await lumen.run(["show", "--db", lumen.database, "doc-1", "nope"])
      #expect(unknown.status == 1)
      #expect(unknown.stderr.contains("nope: not in the index"))
      #expect(unknown.output.contains("doc-1"))
    }
  }

  @Test func deletingADomainDeletesItsSubdomainsOnly() async throws {
    try await withIndex { lumen in
      let deleted = try await lumen.run([
        "items", "delete", "--db", lumen.database, "--domain", "mail",
      ])
      #expect(deleted.status == 0)
      let left = try await lumen.run(["find", "--db", lumen.database, "pageCount > 0"])
      #expect(left.lines == ["doc-3"])
      let state = try await lumen.run(["items", "state", "--db", lumen.database])
      #expect(state.output == "upto:4\n")
    }
  }

  @Test func aBadLineStopsTheBatchBeforeAnythingIsWritten() async throws {
    let lumen = try LumenProcess()
    defer { lumen.cleanUp() }
    let input = """
      {"id": "a", "attributes": {"title": "A"}}
      {"id": "b", "attributes": {"pageCount": "many"}}
      """
    let result = try await lumen.run(
      ["items", "add", "--db", lumen.database, "--client-state", "s", "-"], stdin: Data(input.utf8))
    #expect(result.status == 1)
    #expect(result.stderr.contains("line 2"))
    #expect(result.stderr.contains("pageCount"))
    let state = try await lumen.run(["items", "state", "--db", lumen.database])
    #expect(state.output.isEmpty)
  }

  @Test func resetNeedsYesWithoutATerminal() async throws {
    try await withIndex { lumen in
      let refused = try await lumen.run(["reset", "--db", lumen.database])
      #expect(refused.status == 1)
      #expect(FileManager.default.fileExists(atPath: lumen.database))
      let erased = try await lumen.run(["reset", "--db", lumen.database, "--yes"])
      #expect(erased.status == 0)
      #expect(!FileManager.default.fileExists(atPath: lumen.database))
    }
  }
}
