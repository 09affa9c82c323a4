import Foundation
import GRDB
import Glibc
import LumenTestSupport
import Testing

/// `lumen index` killed with SIGKILL at random moments (a power cut, as the process sees it),
/// index files that are damaged or not indexes at all, and a disk that fills up: the index is
/// never corrupt, never loses a committed batch, and the next run finishes the job.
@Suite("Crash safety through the real binary", .serialized)
struct CrashSafetyTests {
  func writeConfig(_ lumen: LumenProcess, batchSize: Int) throws {
    let folder = lumen.home.appendingPathComponent("config/lumen")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data("batch_size = \(batchSize)\n".utf8).write(
      to: folder.appendingPathComponent("config.toml"))
  }

  func summary(_ result: LumenProcess.Result) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
  }

  @Test func killedAtRandomMomentsTheIndexLosesNoCommittedBatch() async throws {
    let lumen = try LumenProcess()
    defer { lumen.cleanUp() }
    let root = lumen.home.appendingPathComponent("tree").path
    let regularFiles = try TestTree.make(at: root, folders: 24, files: 40, mediaCopies: 3)
    try writeConfig(lumen, batchSize: 40)
    let expected = TestTree.entries(under: root)

    // A clean crawl, to compare with and to time the kills.
    let cleanPath = lumen.home.appendingPathComponent("clean.sqlite").path
    let started = Date()
    let clean = try await lumen.run(["index", "--db", cleanPath, "--json", root])
    let cleanSeconds = Date().timeIntervalSince(started)
    #expect(clean.status == 0, "\(clean.stderr)")
    #expect(try IndexFile(path: cleanPath).files() == expected)

    let database = lumen.home.appendingPathComponent("killed.sqlite").path
    var random = SeededRandom(seed: 6)
    var kills = 0
    for round in 0..<5 {
      for suffix in ["", "-wal", "-shm"] { unlink(database + suffix) }
      // Two kills, the second during the crawl that resumes the first, then a full run.
      var committed: [String: Bool] = [:]
      for _ in 0..<2 {
        let child = try LumenChild(lumen, ["index", "--db", database, "--json", root])
        let delay = Double.random(in: 0.05...(cleanSeconds * 1.1), using: &random)
        try await Task.sleep(for: .seconds(delay))
        if child.process.isRunning {
          child.killHard()
          kills += 1
        } else {
          child.process.waitUntilExit()  // it finished first: the index is complete
        }
        guard FileManager.default.fileExists(atPath: database) else { continue }
        let index = IndexFile(path: database)
        #expect(try index.integrity() == "ok", "round \(round), killed after \(delay) s")
        let now = try index.files()
        #expect(Set(now.keys).isSubset(of: expected.keys), "only what is on disk")
        #expect(Set(committed.keys).isSubset(of: now.keys), "a committed batch is never lost")
        committed = now
      }
      let committedFiles = committed.values.filter { !$0 }.count
      let finished = try await lumen.run(["index", "--db", database, "--json", root])
      #expect(finished.status == 0, "\(finished.stderr)")
      let result = try summary(finished)
      #expect(
        result["reExtracted"] as? Int == regularFiles - committedFiles,
        "round \(round): only what no committed batch held is read again")
      #expect(try IndexFile(path: database).files() == expected, "round \(round): nothing lost")
      #expect(try IndexFile(path: database).integrity() == "ok")
    }
    #expect(kills >= 6, "most kills land during a crawl (\(kills) of 10 did)")
  }

  enum Damage: String, CaseIterable, Sendable {
    case randomBytes, otherProgramsDatabase, truncatedIndex
  }

  @Test(arguments: Damage.allCases)
  func aDamagedIndexIsReportedThenMovedAsideAndRebuilt(damage: Damage) async throws {
    let lumen = try LumenProcess()
    defer { lumen.cleanUp() }
    let root = lumen.home.appendingPathComponent("tree").path
    try TestTree.make(at: root, folders: 3, files: 5, mediaCopies: 0)
    let database = lumen.database
    switch damage {
    case .randomBytes:
      var random = SeededRandom(seed: 9)
      try Data((0..<50_000).map { _ in UInt8.random(in: 0...255, using: &random) })
        .write(to: URL(fileURLWithPath: database))
    case .otherProgramsDatabase:
      let queue = try DatabaseQueue(path: database)
      try await queue.write { db in
        try db.execute(sql: "CREATE TABLE contacts(name TEXT, phone TEXT)")
        try db.execute(sql: "INSERT INTO contacts VALUES ('Ada', '555')")
      }
      try queue.close()
    case .truncatedIndex:
      let big = lumen.home.appendingPathComponent("big").path
      try TestTree.make(at: big, folders: 20, files: 30, mediaCopies: 0)
      #expect(try await lumen.run(["index", "--db", database, big]).status == 0)
      _ = try IndexFile(path: database).integrity()  // the last connection folds the log in
      let size = try #require(
        try FileManager.default.attributesOfItem(atPath: database)[.size] as? Int)
      #expect(truncate(database, off_t(size / 2 / 4096 * 4096)) == 0)
    }
    let damaged = try Data(contentsOf: URL(fileURLWithPath: database))

    for command in [["find", "true"], ["status"], ["show", root]] {
      let result = try await lumen.run([command[0], "--db", database] + command.dropFirst())
      #expect(result.status == 1, "\(command[0]): \(result.stderr)")
      #expect(result.stderr.contains("the index \(database) is unusable"), "\(result.stderr)")
      #expect(!result.stderr.contains("Fatal error"))
    }
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: database)) == damaged, "readers change nothing")

    let index = try await lumen.run(["index", "--db", database, "--json", root])
    #expect(index.status == 0, "\(index.stderr)")
    let moved = try #require(
      index.stderr.range(of: #"moved it to \S+\.corrupt-\d{8}T\d{6}"#, options: .regularExpression),
      "\(index.stderr)")
    let aside = String(index.stderr[moved].dropFirst("moved it to ".count))
    #expect(try Data(contentsOf: URL(fileURLWithPath: aside)) == damaged, "kept as it was")
    let count = try await lumen.run(["find", "--db", database, "--count", "true"])
    #expect(count.output == "\(TestTree.entries(under: root).count)\n")
  }

  @Test func aFullDiskStopsWritingWithAClearMessageAndLosesNothing() async throws {
    try #require(geteuid() == 0, "mounting a small tmpfs needs root (the tests run as root)")
    let lumen = try LumenProcess()
    defer { lumen.cleanUp() }
    let root = lumen.home.appendingPathComponent("tree").path
    try TestTree.make(at: root, folders: 60, files: 50, mediaCopies: 0)
    try writeConfig(lumen, batchSize: 200)
    let small = lumen.home.appendingPathComponent("small").path
    try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: true)
    try await Command.run("/bin/mount", ["-t", "tmpfs", "-o", "size=2M", "tmpfs", small])
    defer { _ = try? Command.runBlocking("/bin/umount", [small]) }
    let database = small + "/index.sqlite"

    let full = try await lumen.run(["index", "--db", database, root])
    #expect(full.status == 1)
    #expect(
      full.stderr.contains("the disk holding the index \(database) is full"), "\(full.stderr)")
    #expect(full.stderr.contains("free some space and run 'lumen index' again"))
    #expect(!full.stderr.contains("Fatal error"))
    let index = IndexFile(path: database)
    #expect(try index.integrity() == "ok")
    // As before the failed batch: whole batches, as many items as the last state says.
    let state = try #require(try index.clientState())
    let files = try index.files()
    #expect(files.count == state["items"] as? Int)
    #expect(files.count % 200 == 0 && files.count > 0)
    #expect(state["complete"] as? Bool == false)

    try await Command.run("/bin/mount", ["-o", "remount,size=64M", small])
    let resumed = try await lumen.run(["index", "--db", database, "--json", root])
    #expect(resumed.status == 0, "\(resumed.stderr)")
    #expect(try index.files() == TestTree.entries(under: root))
    #expect(try index.integrity() == "ok")
  }
}
