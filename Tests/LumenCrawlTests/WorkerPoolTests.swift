import Foundation
import Glibc
import LumenExtract
import LumenModel
import LumenStore
import Synchronization
import Testing

@testable import LumenCrawl

/// Extraction in worker processes (`lumen __extract-worker`) through the real crawl pipeline:
/// the same attributes as in-process extraction, and a crash, a hang and a memory blow-up that
/// each cost one worker and one recorded file, never the crawl.
@Suite("Worker pool extraction", .serialized)
struct WorkerPoolTests {
  static let faults = "crash=lumen-fault-crash;hang=lumen-fault-hang;hog=lumen-fault-hog"

  @Test func workersGiveWhatInProcessExtractionGives() async throws {
    let tree = TemporaryTree("pool-same")
    WorkerSupport.copy(WorkerSupport.mediaFiles, into: tree)
    let inProcess = try CrawlHarness(tree)
    let isolated = try CrawlHarness(tree)
    let direct = try await inProcess.crawl(
      extraction: RuleBasedExtraction(service: WorkerSupport.service()))
    let pool = try WorkerSupport.pool()
    defer { pool.shutdown() }
    let viaWorkers = try await isolated.crawl(extraction: pool)
    #expect(direct.reExtracted == WorkerSupport.mediaFiles.count)
    #expect(viaWorkers.reExtracted == direct.reExtracted)
    #expect(viaWorkers.extractionFailures == 0)
    #expect(pool.statistics.snapshot.jobs == WorkerSupport.mediaFiles.count)
    for relative in WorkerSupport.mediaFiles {
      let name = "media/" + (relative as NSString).lastPathComponent
      let expected = try #require(try await inProcess.item(name))
      let got = try #require(try await isolated.item(name))
      #expect(got.attributes == expected.attributes, "\(name)")
      #expect(got.extractor == expected.extractor, "\(name)")
      #expect(got.extractor != nil, "\(name) was extracted")
    }
    let confinement = try #require(pool.confinement)
    #expect(confinement.noNewPrivileges)
    #expect(confinement.seccomp == "on")
    #expect(confinement.threadsAtConfinement == 1)
  }

  @Test func aCrashAHangAndAMemoryBlowUpAreContainedAndRecorded() async throws {
    let tree = TemporaryTree("pool-faults")
    WorkerSupport.copy(WorkerSupport.mediaFiles, into: tree)
    let photo = try Array(
      Data(contentsOf: URL(fileURLWithPath: WorkerSupport.corpus + "/images/DSCN0010.jpg")))
    for marker in ["crash", "hang", "hog"] { tree.write("faults/lumen-fault-\(marker).jpg", photo) }
    let harness = try CrawlHarness(tree)
    let pool = try WorkerSupport.pool(faults: Self.faults)
    defer { pool.shutdown() }

    let first = try await harness.crawl(extraction: pool)
    #expect(first.failed == 0)
    #expect(first.extractionFailures == 3)
    #expect(first.added == 1 + 2 + WorkerSupport.mediaFiles.count + 3)
    let statistics = pool.statistics.snapshot
    #expect(statistics.crashed == 1)
    #expect(statistics.timedOut == 1)
    #expect(statistics.outOfMemory == 1)
    #expect(statistics.contained == 3)
    // Each failure costs its worker; the pool starts what it needs and no more.
    #expect(statistics.started <= 2 + 3)

    let failures = try await harness.index.failedExtractions()
    let reasons = Dictionary(
      uniqueKeysWithValues: failures.map { (($0.path as NSString).lastPathComponent, $0.reason) })
    #expect(reasons["lumen-fault-crash.jpg"] == "the worker crashed with SIGSEGV")
    #expect(reasons["lumen-fault-hang.jpg"]?.hasPrefix("took longer than its 2 s deadline") == true)
    #expect(reasons["lumen-fault-hog.jpg"]?.hasPrefix("ran out of its 512 MiB memory cap") == true)
    for failure in failures {
      #expect(failure.extractor == ExtractorStamp(name: "photo", version: PhotoExtractor.version))
      let status = try FileStatus.read(path: failure.path)
      #expect(failure.stamp == FileItemBuilder.stamp(status))
      // The item is there with its file-system attributes and type, without photo metadata.
      let item = try #require(try await harness.index.item(withIdentifier: failure.path))
      #expect(item.attributes.number(.fileSize) == Double(photo.count))
      #expect(item.attributes.text(.contentType) == "public.jpeg")
      #expect(item.attributes.first(.contentModificationDate) != nil)
      #expect(item.attributes.number(.pixelWidth) == nil)
    }
    // The other photos were read normally by the surviving and replacement workers.
    let healthy = try #require(try await harness.item("media/DSCN0010.jpg"))
    #expect(healthy.attributes.number(.pixelWidth) == 640)

    // Unchanged files whose extractor did not change are not tried again.
    let second = try await harness.crawl(extraction: pool)
    #expect(second.reExtracted == 0)
    #expect(second.extractionFailures == 0)
    #expect(try await harness.index.failedExtractions().count == 3)

    // A changed file is: it fails again, and its record follows the new file.
    let crash = tree.path("faults/lumen-fault-crash.jpg")
    let handle = try #require(FileHandle(forWritingAtPath: crash))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data([0]))
    try handle.close()
    let third = try await harness.crawl(extraction: pool)
    #expect(third.reExtracted == 1)
    #expect(third.extractionFailures == 1)
    let renewed = try #require(
      try await harness.index.failedExtractions().first { $0.path == crash })
    #expect(renewed.stamp.size == Int64(photo.count + 1))

    // --retry-failed reads all three again; without the faults they now succeed and their
    // records go.
    let healed = try WorkerSupport.pool()
    defer { healed.shutdown() }
    let retried = try await harness.crawl(extraction: healed)
    #expect(retried.reExtracted == 0, "without --retry-failed nothing is read")
    let pipeline = IndexingPipeline(
      index: harness.index, scope: try Scope(options: .init(roots: [tree.root])),
      contentTypes: CrawlHarness.contentTypes,
      options: .init(walk: .init(threads: 2), extraction: healed, retryFailedExtractions: true))
    let retry = try await pipeline.run()
    #expect(retry.reExtracted == 3)
    #expect(retry.extractionFailures == 0)
    #expect(try await harness.index.failedExtractions().isEmpty)
    let fixed = try #require(try await harness.item("faults/lumen-fault-hog.jpg"))
    #expect(fixed.attributes.number(.pixelWidth) == 640)
  }

  /// A new version of the extractor that failed reads the file again, as it does any file.
  @Test func anExtractorUpgradeReadsAFailedFileAgain() async throws {
    let tree = TemporaryTree("pool-upgrade")
    let photo = try Array(
      Data(contentsOf: URL(fileURLWithPath: WorkerSupport.corpus + "/images/DSCN0010.jpg")))
    tree.write("lumen-fault-crash.jpg", photo)
    let harness = try CrawlHarness(tree)
    let crashing = try WorkerSupport.pool(faults: Self.faults)
    defer { crashing.shutdown() }
    #expect(try await harness.crawl(extraction: crashing).extractionFailures == 1)
    #expect(try await harness.crawl(extraction: crashing).reExtracted == 0)

    let upgraded = try WorkerSupport.pool(
      catalog: ExtractorCatalog([UpgradedPhotoExtractor.self, MusicExtractor.self]))
    defer { upgraded.shutdown() }
    #expect(!upgraded.isCurrent(ExtractorStamp(name: "photo", version: PhotoExtractor.version)))
    let again = try await harness.crawl(extraction: upgraded)
    #expect(again.reExtracted == 1)
    #expect(try await harness.index.failedExtractions().isEmpty)
  }

  /// Files deleted or rewritten while their worker reads them: the crawl goes on, the item
  /// keeps what the walk saw, and the next crawl catches up.
  @Test func filesThatVanishOrChangeDuringExtraction() async throws {
    let tree = TemporaryTree("pool-vanish")
    let photo = try Array(
      Data(contentsOf: URL(fileURLWithPath: WorkerSupport.corpus + "/images/DSCN0010.jpg")))
    tree.write("vanish.jpg", photo)
    tree.write("change.jpg", photo)
    tree.write("steady.jpg", photo)
    let harness = try CrawlHarness(tree)
    let pool = try WorkerSupport.pool()
    defer { pool.shutdown() }
    let interfering = InterferingExtraction(pool) { path in
      if path.hasSuffix("vanish.jpg") { unlink(path) }
      if path.hasSuffix("change.jpg") {
        // Replaced by something else entirely, mid-crawl.
        let descriptor = open(path, O_WRONLY | O_TRUNC)
        _ = "not a photo any more".withCString { write(descriptor, $0, 20) }
        close(descriptor)
      }
    }
    let first = try await harness.crawl(extraction: interfering)
    #expect(first.failed == 0)
    #expect(first.extractionFailures == 0)
    #expect(first.added == 4)
    let vanished = try #require(try await harness.item("vanish.jpg"))
    #expect(vanished.attributes.text(.contentType) == "public.jpeg")
    #expect(vanished.attributes.number(.pixelWidth) == nil)

    let second = try await harness.crawl(extraction: pool)
    #expect(second.removed == 1, "vanish.jpg")
    #expect(second.updated == 2, "the folder, which a file left, and change.jpg")
    #expect(second.reExtracted == 1)
    #expect(try await harness.indexedPaths() == ["", "change.jpg", "steady.jpg"])
  }

  @Test func aWorkerProgramThatCannotStartIsAClearError() throws {
    #expect {
      try WorkerPoolExtraction(
        service: WorkerSupport.service(), options: .init(executable: "/nonexistent/lumen"))
    } throws: { error in
      "\(error)".contains("cannot start the extraction worker /nonexistent/lumen")
    }
    // A program that exits at once instead of answering.
    #expect {
      try WorkerPoolExtraction(
        service: WorkerSupport.service(), options: .init(executable: "/bin/true", arguments: []))
    } throws: { error in
      "\(error)".contains("cannot start the extraction worker /bin/true")
    }
  }

  /// Started on demand (`lumen index`): no worker until a file needs one, then the first
  /// worker's confinement report reaches the caller once.
  @Test func aPoolStartedOnDemandStartsItsFirstWorkerForTheFirstFile() throws {
    let tree = TemporaryTree("pool-on-demand")
    let photo = try Array(
      Data(contentsOf: URL(fileURLWithPath: WorkerSupport.corpus + "/images/DSCN0010.jpg")))
    tree.write("a.jpg", photo)
    tree.write("b.jpg", photo)
    let reports = Mutex(0)
    let pool = try WorkerPoolExtraction(
      service: WorkerSupport.service(), options: .init(executable: WorkerSupport.lumen),
      startingNow: false
    ) { _ in reports.withLock { $0 += 1 } }
    defer { pool.shutdown() }
    #expect(pool.statistics.snapshot.started == 0)
    #expect(pool.confinement == nil)
    for name in ["a.jpg", "b.jpg"] {
      let read = pool.extract(
        ExtractionRequest(
          path: tree.path(name), mimeType: "image/jpeg", contentType: "public.jpeg",
          limits: ExtractionLimits()))
      #expect(read?.attributes.number(.pixelWidth) == 640)
    }
    #expect(pool.statistics.snapshot.started == 1)
    #expect(pool.confinement?.noNewPrivileges == true)
    #expect(reports.withLock { $0 } == 1)
    #expect(pool.startFailure == nil)
    // The program is checked up front all the same.
    #expect(throws: WorkerStartError.self) {
      try WorkerPoolExtraction(
        service: WorkerSupport.service(), options: .init(executable: "/nonexistent/lumen"),
        startingNow: false)
    }
  }

  /// When no worker can be started for a file (here: the program removed after the pool
  /// began), the file is left for the next crawl, not stamped as needing no extractor.
  @Test func aFileNoWorkerCouldStartForIsReadByTheNextCrawl() throws {
    let tree = TemporaryTree("pool-unstarted")
    let photo = try Array(
      Data(contentsOf: URL(fileURLWithPath: WorkerSupport.corpus + "/images/DSCN0010.jpg")))
    tree.write("lumen-fault-crash.jpg", photo)
    tree.write("fine.jpg", photo)
    let program = tree.path("bin/lumen")
    try FileManager.default.createDirectory(
      atPath: tree.path("bin"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: WorkerSupport.lumen, toPath: program)
    var environment = ProcessInfo.processInfo.environment
    environment["LUMEN_WORKER_FAULTS"] = Self.faults
    let pool = try WorkerPoolExtraction(
      service: WorkerSupport.service(),
      options: .init(executable: program, workers: 1, environment: environment))
    defer { pool.shutdown() }
    func request(_ name: String) -> ExtractionRequest {
      ExtractionRequest(
        path: tree.path(name), mimeType: "image/jpeg", contentType: "public.jpeg",
        limits: ExtractionLimits())
    }
    // The only worker dies on this file; the next file needs a new one, which cannot start.
    #expect(pool.extract(request("lumen-fault-crash.jpg"))?.failure != nil)
    try FileManager.default.removeItem(atPath: program)
    let unread = try #require(pool.extract(request("fine.jpg")))
    #expect(unread.failure == nil, "not the file's fault: nothing is recorded against it")
    #expect(unread.attributes.number(.pixelWidth) == nil)
    #expect(!pool.isCurrent(unread.extractor), "the next crawl reads it")
    #expect(pool.statistics.snapshot.unstarted == 1)
    // With the program back, a worker starts and reads it.
    try FileManager.default.copyItem(atPath: WorkerSupport.lumen, toPath: program)
    let read = try #require(pool.extract(request("fine.jpg")))
    #expect(read.attributes.number(.pixelWidth) == 640)
    #expect(pool.isCurrent(read.extractor))
  }

  /// A worker killed from outside (a service manager's SIGTERM) is not its file's fault: the
  /// file is tried again on a fresh worker, and is recorded only if that one dies too.
  @Test func aWorkerKilledFromOutsideIsNotBlamed() async throws {
    let tree = TemporaryTree("pool-outside")
    let photo = try Array(
      Data(contentsOf: URL(fileURLWithPath: WorkerSupport.corpus + "/images/DSCN0010.jpg")))
    tree.write("slow.jpg", photo)
    let harness = try CrawlHarness(tree)
    let pool = try WorkerSupport.pool(workers: 1)
    defer { pool.shutdown() }
    // Before the crawl, kill the idle worker from outside: the pool learns it is gone when it
    // sends the job, and starts another.
    let children = try TemporaryTree.run(
      "/usr/bin/pgrep", ["-P", "\(getpid())", "-f", "__extract-worker"])
    for pid in children.split(separator: "\n").compactMap({ Int32($0) }) { kill(pid, SIGTERM) }
    usleep(100_000)
    let summary = try await harness.crawl(extraction: pool)
    #expect(summary.extractionFailures == 0)
    #expect(pool.statistics.snapshot.killedFromOutside == 1)
    #expect(try await harness.item("slow.jpg")?.attributes.number(.pixelWidth) == 640)
  }
}

/// The photo extractor under a new version number, as after an upgrade.
struct UpgradedPhotoExtractor: Extractor {
  static let name = PhotoExtractor.name
  static let version = PhotoExtractor.version + 1
  func extract(_ request: ExtractionRequest) throws(ExtractionError) -> ExtractionOutcome {
    try PhotoExtractor().extract(request)
  }
}
