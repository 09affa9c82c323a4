import Foundation
import Glibc
import LumenModel
import Testing

/// A crawl through the real binary over the generated hostile corpus (bench/HostileCorpus):
/// lying photos and songs, PDFs that contain themselves, zip bombs and path traversal in
/// office files and EPUB, billion laughs and external entities, HTML 100,000 levels deep,
/// 1 GiB sparse files, FIFOs, device nodes, symlink loops and names that are not UTF-8, plus
/// files on which the worker is made to crash, hang and run out of memory. The crawl
/// finishes; every item has its file-system attributes and its type; failures are recorded.
/// (Extractor-level hostile inputs are tested in LumenExtractTests.)
@Suite("Hostile input through lumen index", .serialized)
struct HostileCrawlTests {
  static let faults = "crash=lumen-fault-crash;hang=lumen-fault-hang;hog=lumen-fault-hog"

  static var generator: URL {
    LumenProcess.executable.deletingLastPathComponent().appendingPathComponent("HostileCorpus")
  }

  @Test func aCrawlOverHostileInputFinishesAndIndexesEveryEntry() async throws {
    let lumen = try LumenProcess()
    defer {
      _ = try? Command.runBlocking("/bin/chmod", ["-R", "u+rwx", lumen.home.path])
      lumen.cleanUp()
    }
    let root = lumen.home.appendingPathComponent("hostile").path
    let canary = lumen.home.appendingPathComponent("canary.txt").path
    for leftover in ["docx", "absolute", "odt", "epub"] {
      unlink("/tmp/lumen-traversal-\(leftover)")
    }
    let made = try await Command.run(
      Self.generator.path, [root, "--canary", canary, "--corpus", TestTree.corpus])
    #expect(!made.contains("\"skipped\""), "every hostile entry was made: \(made)")

    let started = Date()
    let first = try await lumen.run(
      ["index", "--db", lumen.database, "--json", root],
      environment: ["LUMEN_WORKER_FAULTS": Self.faults])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(!first.signaled)
    #expect(Date().timeIntervalSince(started) < 120)
    let summary = try #require(
      try JSONSerialization.jsonObject(with: first.stdout) as? [String: Any])
    // The FIFO and the device are reported, never opened (opening the FIFO would block).
    let errors = try #require(summary["errors"] as? [[String: String]])
    #expect(
      Set(errors.map { ($0["path"]! as NSString).lastPathComponent })
        == ["fifo.jpg", "null-device.mp3"])
    #expect(errors.allSatisfy { $0["reason"]!.hasPrefix("not a regular file") })

    // Every entry but those two is an item with its file-system attributes and a type.
    // Paths as `lumen find` prints them: bytes that are not UTF-8 shown as \xFF.
    let onDisk = Dictionary(
      uniqueKeysWithValues: RawTree.entries(under: root).filter { $0.value != .other }.map {
        (FaithfulPath.display($0.key), $0.value)
      })
    let found = try await lumen.run([
      "find", "--db", lumen.database, "--json", "--attr", "contentType", "--attr", "fileSize",
      "--attr", "contentModificationDate", "--attr", "ownerUserID", "true",
    ])
    #expect(found.status == 0)
    var items: [String: [String: Any]] = [:]
    for line in found.lines {
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      items[try #require(object["path"] as? String)] = object
    }
    #expect(Set(items.keys) == Set(onDisk.keys))
    for (path, kind) in onDisk {
      guard let item = items[path] else { continue }
      #expect(item["contentType"] is String, "\(path) has a type")
      #expect(item["contentModificationDate"] is String, "\(path) has its dates")
      #expect(item["ownerUserID"] is NSNumber, "\(path) has its owner")
      if kind == .regular { #expect(item["fileSize"] is NSNumber, "\(path) has its size") }
    }
    #expect(items[root + "/big/sparse.pdf"]?["fileSize"] as? Int == 1 << 30)

    // The three files the worker was made to fail on are recorded with their reasons.
    let status = try await lumen.run(["status", "--db", lumen.database, "--json"])
    let report = try #require(
      try JSONSerialization.jsonObject(with: status.stdout) as? [String: Any])
    let failures = try #require(report["failedExtractions"] as? [[String: Any]])
    let reasons = Dictionary(
      failures.map { (($0["path"] as! NSString).lastPathComponent, $0["reason"] as! String) },
      uniquingKeysWith: { first, _ in first })
    #expect(reasons["lumen-fault-crash.jpg"] == "the worker crashed with SIGSEGV")
    #expect(reasons["lumen-fault-hang.jpg"]?.contains("deadline") == true)
    #expect(reasons["lumen-fault-hog.jpg"]?.contains("memory cap") == true)
    #expect(summary["extractionFailures"] as? Int == failures.count)
    let workers = try #require(summary["workers"] as? [String: Int])
    #expect(
      workers["crashed", default: 0] + workers["timedOut", default: 0]
        + workers["outOfMemory", default: 0] == failures.count)

    // Nothing outside the tree was read into the index or written by an archive's entry names.
    let secret = try await lumen.run([
      "find", "--db", lumen.database, "--count", "LUMENCANARYSECRET",
    ])
    #expect(secret.output == "0\n", "the external entity's file was never read")
    for leftover in ["docx", "absolute", "odt", "epub"] {
      #expect(!FileManager.default.fileExists(atPath: "/tmp/lumen-traversal-\(leftover)"))
    }

    // Nothing is retried: no file changed, no extractor changed.
    let second = try await lumen.run(
      ["index", "--db", lumen.database, "--json", root],
      environment: ["LUMEN_WORKER_FAULTS": Self.faults])
    let again = try #require(
      try JSONSerialization.jsonObject(with: second.stdout) as? [String: Any])
    #expect(again["reExtracted"] as? Int == 0)
    #expect(again["extractionFailures"] as? Int == 0)
    #expect(again["unchanged"] as? Int == items.count)
  }

  /// `lumen status` lists what a worker died on; `--retry-failed` reads exactly those again.
  @Test func failedFilesAreListedAndRetriedOnRequest() async throws {
    let lumen = try LumenProcess()
    defer { lumen.cleanUp() }
    let root = lumen.home.appendingPathComponent("photos").path
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    let photo = TestTree.corpus + "/images/DSCN0010.jpg"
    for name in ["lumen-fault-crash.jpg", "lumen-fault-hog.jpg", "fine.jpg"] {
      try FileManager.default.copyItem(atPath: photo, toPath: root + "/" + name)
    }
    func index(_ extra: [String], faults: Bool) async throws -> [String: Any] {
      let result = try await lumen.run(
        ["index", "--db", lumen.database, "--json"] + extra + [root],
        environment: faults ? ["LUMEN_WORKER_FAULTS": Self.faults] : [:])
      #expect(result.status == 0, "\(result.stderr)")
      return try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    }
    let first = try await index([], faults: true)
    #expect(first["extractionFailures"] as? Int == 2)
    let status = try await lumen.run(["status", "--db", lumen.database])
    #expect(status.output.contains("Failed:        2 files"), "\(status.output)")
    #expect(status.output.contains("lumen-fault-crash.jpg  photo 1"))
    #expect(status.output.contains("the worker crashed with SIGSEGV"))

    #expect(try await index([], faults: false)["reExtracted"] as? Int == 0, "not retried unasked")
    let retried = try await index(["--retry-failed"], faults: false)
    #expect(retried["reExtracted"] as? Int == 2, "exactly the two failed files")
    #expect(retried["extractionFailures"] as? Int == 0)
    let after = try await lumen.run(["status", "--db", lumen.database, "--json"])
    let report = try #require(
      try JSONSerialization.jsonObject(with: after.stdout) as? [String: Any])
    #expect((report["failedExtractions"] as? [Any])?.isEmpty == true)
    let found = try await lumen.run([
      "find", "--db", lumen.database, "--count", "pixelWidth == 640",
    ])
    #expect(found.output == "3\n", "all three photos read now")
  }
}
