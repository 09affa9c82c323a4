import Foundation
import Glibc
import LumenExtract
import LumenModel
import LumenQuery
import LumenStore
import LumenTestSupport
import Testing

@testable import LumenCrawl

/// Crawls that need a process of their own: one run as an unprivileged user (the tests run as
/// root, who can read everything), one killed with SIGKILL in the middle. The child is this
/// test bundle itself, running one of the tests below.
@Suite("Crawls in a child process: another user, SIGKILL")
struct CrawlProcessTests {
  /// This test bundle, to run again as a child.
  static let testBundle = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path

  /// Runs one test of this bundle in a child process, as `nobody` when we are root.
  static func runChild(
    test: String, asNobody: Bool, environment extra: [String: String] = [:]
  ) throws -> Process {
    let process = Process()
    var arguments = [testBundle, "--testing-library", "swift-testing", "--filter", test]
    if asNobody {
      arguments = ["--reuid=nobody", "--regid=nogroup", "--clear-groups"] + arguments
      process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    } else {
      process.executableURL = URL(fileURLWithPath: arguments.removeFirst())
    }
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = "/tmp"
    environment["LUMEN_RULES_DIR"] = CrawlHarness.packageRoot + "/rules"
    for (key, value) in extra { environment[key] = value }
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return process
  }

  // MARK: Permissions

  /// Run as whoever runs the tests: root reads everything; anyone else cannot read a mode-000
  /// file or folder, which then fails, is not indexed, and loses the item it had.
  @Test func unreadableEntriesFailForTheRunningUser() async throws {
    let tree = TemporaryTree("perm")
    tree.file("open.txt", "x")
    tree.file("closed.txt", "secret")
    tree.file("locked/inside.txt", "y")
    let harness = try CrawlHarness(tree)
    let readable = try await harness.crawl()
    #expect(readable.added == 5)
    tree.chmod("closed.txt", 0)
    tree.chmod("locked", 0)
    let summary = try await harness.crawl()
    if geteuid() == 0 {
      #expect(summary.failed == 0)
      #expect(summary.unchanged == 3, "root, open.txt, inside.txt")
      #expect(try await harness.indexedPaths().count == 5)
    } else {
      #expect(summary.failed == 2)
      #expect(summary.errors.map(\.path) == [tree.path("closed.txt"), tree.path("locked")])
      #expect(summary.errors.allSatisfy { $0.reason == "Permission denied" })
      #expect(summary.removed == 3, "closed.txt, locked and what it holds")
      #expect(try await harness.indexedPaths() == ["", "open.txt"])
    }
  }

  @Test func unreadableEntriesFailForAnUnprivilegedUser() async throws {
    // As root, drop to nobody (setpriv); anyone else is unprivileged already.
    let child = try Self.runChild(
      test: "unreadableEntriesFailForTheRunningUser", asNobody: geteuid() == 0)
    while child.isRunning { try await Task.sleep(for: .milliseconds(20)) }
    #expect(child.terminationReason == .exit)
    #expect(
      child.terminationStatus == 0, "the crawl as nobody counts and skips what it cannot read")
  }

  // MARK: SIGKILL

  /// A slow crawl (20 ms of extraction per file, so 600 files take 12 s or more) of the tree and into the index the
  /// environment names, or of its own small tree. The parent test kills it halfway.
  @Test func aSlowCrawlRunsToTheEnd() async throws {
    let environment = ProcessInfo.processInfo.environment
    let ownTree =
      environment["LUMEN_TEST_TREE"] == nil ? Self.manyFiles(folders: 4, files: 10) : nil
    let root = environment["LUMEN_TEST_TREE"] ?? ownTree!.root
    let storage = TemporaryTree("slow")
    let database = environment["LUMEN_TEST_DB"] ?? storage.path("index.sqlite")
    let index = try SearchableIndex(
      location: IndexLocation(path: database),
      options: .init(contentTypes: CrawlHarness.contentTypes))
    let pipeline = IndexingPipeline(
      index: index, scope: try Scope(options: .init(roots: [root])),
      contentTypes: CrawlHarness.contentTypes,
      options: .init(
        batchSize: 20, walk: .init(threads: 1),
        extraction: CountingExtraction { count in
          usleep(20_000)
          // Tell a watching parent how far the crawl got.
          if let progress = environment["LUMEN_TEST_PROGRESS"] {
            try? "\(count)".write(toFile: progress, atomically: true, encoding: .utf8)
          }
        }))
    let summary = try await pipeline.run()
    #expect(summary.failed == 0)
    #expect(summary.added > 0)
  }

  @Test func aKilledCrawlLeavesWholeBatchesAndTheNextResumes() async throws {
    let tree = Self.manyFiles(folders: 20, files: 30)
    let total = 1 + 20 + 20 * 30
    let storage = TemporaryTree("killed")
    let database = storage.path("index.sqlite")
    let progress = storage.path("progress")
    let child = try Self.runChild(
      test: "aSlowCrawlRunsToTheEnd", asNobody: false,
      environment: [
        "LUMEN_TEST_TREE": tree.root, "LUMEN_TEST_DB": database, "LUMEN_TEST_PROGRESS": progress,
      ])
    // Wait until a third of the files were read (several batches are in), then kill without
    // warning. The wait polls on a thread of its own: a task's sleep on a loaded machine can
    // overrun by seconds, and the child must not finish unseen.
    let pid = child.processIdentifier
    let killed = try await OffThePool.run { () -> Bool in
      let deadline = Date().addingTimeInterval(120)
      while Date() < deadline {
        usleep(10_000)
        let read =
          (try? String(contentsOfFile: progress, encoding: .utf8)).flatMap { Int($0) } ?? 0
        if read >= 200 { return kill(pid, SIGKILL) == 0 }
      }
      return false
    }
    #expect(killed, "the child must still be crawling when it is killed")
    while child.isRunning { try await Task.sleep(for: .milliseconds(20)) }
    #expect(child.terminationReason == .uncaughtSignal)

    // The first crawl bulk loads: killed, it leaves its attribute indexes deferred. A reader
    // creates nothing and still answers (by scanning); the next writable open creates them.
    let reader = try SearchableIndex(
      location: IndexLocation(path: database),
      options: .init(readOnly: true, contentTypes: CrawlHarness.contentTypes))
    #expect(try await reader.deferredIndexes().contains("item_by_fileSize"))
    let sizedQuery = try QueryParser(registry: reader.registry).parse("fileSize >= 3")
    let sizedWhileDeferred = try await reader.count(sizedQuery)
    #expect(sizedWhileDeferred > 0)
    #expect(try await reader.deferredIndexes().contains("item_by_fileSize"))

    let harness = try CrawlHarness(tree, database: database)
    #expect(try await harness.index.deferredIndexes().isEmpty)
    #expect(try await harness.index.count(sizedQuery) == sizedWhileDeferred)
    let state = try #require(CrawlState.decode(try await harness.index.fetchLastClientState()))
    #expect(!state.complete)
    let indexed = try await harness.indexedPaths()
    #expect(indexed.count == state.items, "only whole batches: what the state says, no more")
    #expect(indexed.count % 20 == 0)
    #expect(indexed.count < total)
    let committedFiles = indexed.filter { $0.hasSuffix(".txt") }.count

    let extraction = CountingExtraction()
    let resumed = try await harness.crawl(extraction: extraction)
    #expect(resumed.resumedInterruptedCrawl)
    #expect(extraction.count == 20 * 30 - committedFiles, "committed files are not read again")
    #expect(try await harness.indexedPaths().count == total)
    #expect(try await harness.index.deferredIndexes().isEmpty)
  }

  static func manyFiles(folders: Int, files: Int) -> TemporaryTree {
    let tree = TemporaryTree("many")
    for folder in 0..<folders {
      for file in 0..<files { tree.file("d\(folder)/f\(file).txt", "\(folder) \(file)") }
    }
    return tree
  }
}
