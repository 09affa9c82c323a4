import Foundation
import GRDB
import Testing

/// `lumen index`, `status`, `forget`, `rules` and `extract` through the real binary on real
/// folders: the everyday path of a person indexing a folder and searching it.
@Suite struct IndexCommandTests {
  /// A small tree with a git work tree whose build output is ignored, a hidden file and a
  /// folder marked .nomedia, plus real photos and songs from the shared corpus.
  func makeTree(in lumen: LumenProcess) throws -> String {
    let root = lumen.home.appendingPathComponent("home").path
    let fm = FileManager.default
    func write(_ relative: String, _ text: String) throws {
      let url = URL(fileURLWithPath: root + "/" + relative)
      try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
    try write("Documents/budget report.txt", "The quarterly budget of the garden club.\n")
    try write("Documents/notes.md", "# Holiday plans\nPack the tent.\n")
    try write("project/.git/HEAD", "ref: refs/heads/main\n")
    try write("project/.gitignore", "build/\n")
    try write("project/main.swift", "print(\"hello\")\n")
    try write("project/build/output.o", "binary")
    try write(".secret", "hidden")
    try write("Camera/.nomedia", "")
    try write("Camera/skipped.txt", "not indexed")
    let corpus = LumenProcess.packageRoot.appendingPathComponent("../shared/corpus").standardized
    try fm.createDirectory(atPath: root + "/Pictures", withIntermediateDirectories: true)
    try fm.copyItem(
      atPath: corpus.appendingPathComponent("images/DSCN0010.jpg").path,
      toPath: root + "/Pictures/DSCN0010.jpg")
    try fm.copyItem(
      atPath: corpus.appendingPathComponent("audio/beets-full.flac").path,
      toPath: root + "/Pictures/song.flac")
    return root
  }

  func summary(_ result: LumenProcess.Result) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
  }

  @Test func indexThenSearchThenReindexNothingChanged() async throws {
    let lumen = try LumenProcess()
    defer { lumen.cleanUp() }
    let root = try makeTree(in: lumen)
    let first = try await lumen.run(["index", "--db", lumen.database, "--json", root])
    #expect(first.status == 0, "\(first.stderr)")
    let counts = try summary(first)
    // home, Documents, 2 docs, project, .gitignore? (hidden), main.swift, Pictures, 2 media.
    #expect(counts["failed"] as? Int == 0)
    let paths = try await lumen.run(["find", "--db", lumen.database, "true"]).lines.map {
      String($0.dropFirst(root.count))
    }
    #expect(
      Set(paths) == [
        "", "/Documents", "/Documents/budget report.txt", "/Documents/notes.md", "/project",
        "/project/main.swift", "/Pictures", "/Pictures/DSCN0010.jpg", "/Pictures/song.flac",
      ])
    #expect(counts["added"] as? Int == paths.count)

    let photo = try await lumen.run([
      "find", "--db", lumen.database, "--json", "--attr", "fNumber", "--attr", "acquisitionModel",
      "contentTypeTree == 'public.image' && fNumber > 5",
    ])
    #expect(
      photo.lines == [
        #"{"id":"\#(root)/Pictures/DSCN0010.jpg","path":"\#(root)/Pictures/DSCN0010.jpg","fNumber":5.9,"acquisitionModel":"COOLPIX P6000"}"#
      ])
    let song = try await lumen.run(["find", "--db", lumen.database, "composer == 'the composer'"])
    #expect(song.lines == [root + "/Pictures/song.flac"])
    let code = try await lumen.run([
      "find", "--db", lumen.database, "--count", "kMDItemContentTypeTree == 'public.source-code'",
    ])
    #expect(code.output == "1\n")

    let again = try summary(try await lumen.run(["index", "--db", lumen.database, "--json", root]))
    #expect(again["unchanged"] as? Int == paths.count)
    #expect(again["added"] as? Int == 0 && again["updated"] as? Int == 0)
    #expect(
      (again["workers"] as? [String: Int])?["started"] == 0,
      "nothing to read, so no extraction worker is started")
  }

  @Test func optionsBringBackHiddenAndIgnoredFiles() async throws {
    let lumen = try LumenProcess()
    defer { lumen.cleanUp() }
    let root = try makeTree(in: lumen)
    let result = try await lumen.run([
      "index", "--db", lumen.database, "--include-hidden", "--no-gitignore", "--exclude", "*.md",
      root,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let names = Set(
      try await lumen.run(["find", "--db", lumen.database, "true"]).lines.map {
        ($0 as NSString).lastPathComponent
      })
    #expect(names.contains(".secret") && names.contains("output.o"))
    #expect(!names.contains("notes.md"))
    #expect(!names.contains("skipped.txt"), ".nomedia still hides its folder")
  }

  @Test func statusForgetAndAMissingRoot() async throws {
    let lumen = try LumenProcess()
    defer { lumen.cleanUp() }
    let root = try makeTree(in: lumen)
    try await lumen.run(["index", "--db", lumen.database, root])
    let status = try await lumen.run(["status", "--db", lumen.database, "--json"])
    let object = try summary(status)
    let roots = try #require(object["roots"] as? [[String: Any]])
    #expect(roots.first?["path"] as? String == root)
    #expect(roots.first?["lastCrawled"] is String)
    #expect((object["items"] as? Int ?? 0) > 5)

    let forgotten = try await lumen.run(["forget", "--db", lumen.database, root])
    #expect(forgotten.status == 0)
    #expect(
      try await lumen.run(["find", "--db", lumen.database, "--count", "true"]).output == "0\n")

    let missing = try await lumen.run(["index", "--db", lumen.database, root + "/nope"])
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("nope: No such file or directory"))
  }

  /// A first crawl killed mid-way leaves an index dropped and the full text behind: `status`
  /// says so, `find` (read-only) still answers, and the next `lumen index` finishes the work.
  @Test func aKilledFirstCrawlsBulkLoadIsShownThenFinished() async throws {
    let lumen = try LumenProcess()
    defer { lumen.cleanUp() }
    let root = try makeTree(in: lumen)
    try await lumen.run(["index", "--db", lumen.database, root])
    let queries = ["budget", "fileName == '*otes*'", "fileSize > 10"]
    var expected: [[String]] = []
    for query in queries {
      expected.append(try await Self.found(lumen, query))
    }
    #expect(expected.allSatisfy { !$0.isEmpty }, "every query must find something")
    #expect(
      try summary(try await lumen.run(["status", "--db", lumen.database, "--json"]))[
        "bulkLoad"] is NSNull)

    // What a loader killed between its first and last batch leaves (see DeferredIndexes and
    // DeferredFullText), written by hand: no process holds the load's lock.
    let queue = try DatabaseQueue(path: lumen.database)
    try await queue.write { db in
      let statement = try String.fetchOne(
        db, sql: "SELECT sql FROM sqlite_master WHERE name = 'item_by_fileSize'")
      try db.execute(sql: "DROP INDEX item_by_fileSize")
      try db.execute(
        sql: "INSERT INTO meta(key, value) VALUES ('deferred_indexes', ?), "
          + "('full_text_deferred', '1')", arguments: [statement])
      try db.execute(sql: "INSERT INTO item_fts(item_fts) VALUES ('delete-all')")
      try db.execute(sql: "INSERT INTO item_trigram(item_trigram) VALUES ('delete-all')")
    }
    try queue.close()

    let status = try summary(try await lumen.run(["status", "--db", lumen.database, "--json"]))
    let load = try #require(status["bulkLoad"] as? [String: Any])
    #expect(load["deferredIndexes"] as? [String] == ["item_by_fileSize"])
    #expect(load["fullTextBehind"] as? Bool == true)
    #expect(try await lumen.run(["status", "--db", lumen.database]).output.contains("Building:"))
    for (query, answer) in zip(queries, expected) {
      #expect(try await Self.found(lumen, query) == answer, "\(query)")
    }

    try await lumen.run(["index", "--db", lumen.database, root])
    #expect(
      try summary(try await lumen.run(["status", "--db", lumen.database, "--json"]))[
        "bulkLoad"] is NSNull)
    for (query, answer) in zip(queries, expected) {
      #expect(try await Self.found(lumen, query) == answer, "\(query)")
    }
    let rebuilt = try DatabaseQueue(path: lumen.database)
    defer { try? rebuilt.close() }
    #expect(
      try await rebuilt.read { db in
        try Int.fetchOne(db, sql: "SELECT count(*) FROM item_fts WHERE item_fts MATCH 'budget'")
      } == 1)
  }

  /// The paths `lumen find` prints, sorted: without an index or a ranking the order may differ.
  static func found(_ lumen: LumenProcess, _ query: String) async throws -> [String] {
    let result = try await lumen.run(["find", "--db", lumen.database, query])
    #expect(result.status == 0)
    return result.lines.sorted()
  }

  @Test func rulesListTheirFilesAndExtractTouchesNoIndex() async throws {
    let lumen = try LumenProcess()
    defer { lumen.cleanUp() }
    let rules = try await lumen.run(["rules", "--json"])
    #expect(rules.status == 0)
    let objects = try rules.lines.map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    let photo = try #require(objects.first { $0["extractor"] as? String == "photo" })
    #expect((photo["file"] as? String)?.contains("rules/10-photos.rule:") == true)
    #expect(objects.contains { $0["identifier"] as? String == "public.jpeg" })

    let root = try makeTree(in: lumen)
    let extract = try await lumen.run(["extract", "--json", root + "/Pictures/DSCN0010.jpg"])
    #expect(extract.status == 0, "\(extract.stderr)")
    let result = try #require(
      try JSONSerialization.jsonObject(with: extract.stdout) as? [String: Any])
    #expect((result["rule"] as? String)?.contains("10-photos.rule") == true)
    let attributes = try #require(result["attributes"] as? [String: Any])
    #expect(attributes["pixelWidth"] as? Int == 640)
    #expect(attributes["contentType"] as? String == "public.jpeg")
    #expect(!FileManager.default.fileExists(atPath: lumen.database))
  }
}

extension IndexCommandTests {
  /// A root reached through a symbolic link is indexed under its real path (the walk never
  /// follows links, so the root is resolved once).
  @Test func aSymlinkedRootIsIndexedUnderItsRealPath() async throws {
    let lumen = try LumenProcess()
    defer { lumen.cleanUp() }
    let root = try makeTree(in: lumen)
    let link = lumen.home.appendingPathComponent("link-to-home").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: root)
    let result = try await lumen.run(["index", "--db", lumen.database, link])
    #expect(result.status == 0, "\(result.stderr)")
    let found = try await lumen.run(["find", "--db", lumen.database, "--name", "budget"])
    #expect(found.lines == [root + "/Documents/budget report.txt"])
  }
}

extension IndexCommandTests {
  /// What could not be indexed is reported with its path, counted, kept out of the way of the
  /// rest, and remembered for `lumen status`.
  @Test func failuresAreReportedAndStatusShowsThem() async throws {
    let lumen = try LumenProcess()
    defer { lumen.cleanUp() }
    let root = try makeTree(in: lumen)
    #expect(mkfifo(root + "/Documents/pipe", 0o644) == 0)
    let result = try await lumen.run(["index", "--db", lumen.database, root])
    #expect(result.status == 0)
    #expect(result.output.contains("1 failed"))
    #expect(result.stderr.contains(root + "/Documents/pipe: not a regular file"))
    let found = try await lumen.run(["find", "--db", lumen.database, "--name", "budget"])
    #expect(found.lines == [root + "/Documents/budget report.txt"])
    let status = try await lumen.run(["status", "--db", lumen.database, "--json"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: status.stdout) as? [String: Any])
    let last = try #require(object["lastIndex"] as? [String: Any])
    #expect(last["failed"] as? Int == 1)
    let errors = try #require(last["errors"] as? [[String: Any]])
    #expect(errors.first?["path"] as? String == root + "/Documents/pipe")
  }
}
