import Foundation
import Glibc
import LumenExtract
import LumenModel
import LumenStore
import Synchronization

/// The crawl's extraction step in worker processes: the same rule chain as
/// `RuleBasedExtraction`, run by up to `workers` copies of `lumen __extract-worker`, so that
/// the indexer never shares its life with libexif, TagLib, qpdf or libxml2.
///
/// Each file gets its rule's `Timeout=` (re-armed for each extractor the chain tries) and the
/// worker runs under its rule's `MaxMemory=` (RLIMIT_AS). A worker that crashes, overruns its
/// deadline or its memory is killed and replaced, and the file comes back as a
/// `FileExtraction` carrying the reason and the extractor that was running: the crawl writes
/// the item with its file-system attributes and type, and records the failure, and the item's
/// extractor stamp keeps the file from being read again until it or that extractor changes.
///
/// Files that no rule matches never leave the indexer: they get the rules' fingerprint stamp
/// at once, as `RuleBasedExtraction` gives them, without a round trip.
public final class WorkerPoolExtraction: FileExtracting {
  public struct Options: Sendable {
    /// The worker program: the running `lumen` binary.
    public var executable: String
    public var arguments: [String]
    /// How many workers may run at once (each serves one crawl thread at a time).
    public var workers: Int
    /// The workers' environment.
    public var environment: [String: String]
    /// How long a new worker may take to start and confine itself.
    public var startTimeoutSeconds: Double
    /// Skip Landlock and seccomp (for measuring their cost only).
    public var unconfined: Bool

    public init(
      executable: String, arguments: [String] = ["__extract-worker"],
      workers: Int = ProcessInfo.processInfo.activeProcessorCount,
      environment: [String: String] = ProcessInfo.processInfo.environment,
      startTimeoutSeconds: Double = 10, unconfined: Bool = false
    ) {
      self.executable = executable
      self.arguments = arguments
      self.workers = max(1, workers)
      var environment = environment
      // A crashing worker should die at once, not spend seconds symbolicating a backtrace.
      environment["SWIFT_BACKTRACE"] = "enable=no"
      self.environment = environment
      self.startTimeoutSeconds = startTimeoutSeconds
      self.unconfined = unconfined
    }
  }

  public let service: ExtractionService
  public let options: Options
  /// The same rules in this process: what is current, and the stamp of files nothing read.
  private let inProcess: RuleBasedExtraction
  public let statistics = WorkerPoolStatistics()
  /// What the first worker reported about its confinement; nil until one has started.
  public var confinement: ConfinementReport? { firstReport.withLock { $0 } }
  private let firstReport = Mutex<ConfinementReport?>(nil)
  /// Why the last worker that was needed could not start, if one could not.
  public var startFailure: String? { lastStartFailure.withLock { $0 } }
  private let lastStartFailure = Mutex<String?>(nil)
  /// Called once, with the first worker's report, when a worker first starts.
  private let onFirstStart: (@Sendable (ConfinementReport) -> Void)?
  private let slots: DispatchSemaphore
  private let idle = Mutex<[WorkerProcess]>([])
  private let hello: WorkerHello

  /// With `startingNow`, starts one worker at once, so that a worker that cannot start is an
  /// error here rather than a lack of metadata later. Without it (`lumen index`), the first
  /// file that needs an extractor starts one: a crawl that finds nothing to read, such as a
  /// nothing-changed re-run, never pays for a worker process (35 ms of a 20,000-file re-run
  /// that `find` walks in 90 ms). The program is still checked here; `onFirstStart` hears the
  /// first worker's confinement report, from whichever crawl thread started it.
  public init(
    service: ExtractionService, options: Options, startingNow: Bool = true,
    onFirstStart: (@Sendable (ConfinementReport) -> Void)? = nil
  ) throws {
    self.service = service
    self.options = options
    self.inProcess = RuleBasedExtraction(service: service)
    self.slots = DispatchSemaphore(value: options.workers)
    self.hello = WorkerHello(rules: service.rules.rules, unconfined: options.unconfined)
    self.onFirstStart = onFirstStart
    // A worker that dies while being written to must not take the indexer with it.
    signal(SIGPIPE, SIG_IGN)
    if startingNow {
      let (first, report) = try Self.start(
        options: options, hello: hello, statistics: statistics)
      noteStarted(report)
      idle.withLock { $0.append(first) }
    } else if access(options.executable, X_OK) != 0 {
      throw WorkerStartError(
        executable: options.executable, reason: String(cString: strerror(errno)))
    }
  }

  deinit { shutdown() }

  public func isCurrent(_ stamp: ExtractorStamp?) -> Bool { inProcess.isCurrent(stamp) }

  public var readsFiles: Bool { inProcess.readsFiles }

  public func extract(_ request: ExtractionRequest) -> FileExtraction? {
    let rules = service.rules.rules(forMIME: request.mimeType).filter {
      service.catalog.type(named: $0.extractor) != nil
    }
    guard let first = rules.first else {
      return FileExtraction(attributes: AttributeSet(), extractor: inProcess.noExtractorStamp)
    }
    let job = ExtractionJob(
      path: request.path, mimeType: request.mimeType, contentType: request.contentType)
    var failure: (WorkerFailure, ExtractorIdentity)?
    attempts: for _ in 0..<2 {
      slots.wait()
      defer { slots.signal() }
      guard let worker = checkout() else {
        // No worker could start (a machine too busy to start one within the deadline, no
        // processes left). The item gets its file-system attributes now and a stamp that no
        // extractor version matches, so that the next crawl reads it again; nil would have
        // meant "no extractor applies", and the file would never have been read.
        statistics.unstarted.add(1, ordering: .relaxed)
        return FileExtraction(
          attributes: AttributeSet(), problems: ["no extraction worker could start"],
          extractor: ExtractorStamp(name: first.extractor, version: Self.notRunVersion))
      }
      statistics.jobs.add(1, ordering: .relaxed)
      switch run(job, on: worker, rules: rules, first: first) {
      case .success(let result):
        idle.withLock { $0.append(worker) }
        return FileExtraction(result, noExtractor: inProcess.noExtractorStamp)
      case .failure(let lost):
        worker.kill()
        count(lost.failure)
        failure = (lost.failure, lost.extractor)
        if lost.failure.blamesFile { break attempts }
      }
    }
    guard let (lost, extractor) = failure else { return nil }
    return FileExtraction(
      attributes: AttributeSet(), problems: [lost.reason],
      extractor: ExtractorStamp(name: extractor.name, version: extractor.version),
      failure: lost.reason)
  }

  /// The version in the stamp of a file no worker could read: extractors count from 1, so
  /// `isCurrent` is false for it and the next crawl reads the file.
  static let notRunVersion = 0

  /// Ends every idle worker (they exit when their input closes). Call after the crawl.
  public func shutdown() {
    let workers = idle.withLock { workers -> [WorkerProcess] in
      defer { workers = [] }
      return workers
    }
    for worker in workers { worker.finish() }
  }

  // MARK: One job

  private struct LostFile: Error {
    let failure: WorkerFailure
    let extractor: ExtractorIdentity
  }

  private func run(
    _ job: ExtractionJob, on worker: WorkerProcess, rules: [ExtractionRule], first: ExtractionRule
  ) -> Result<ExtractionResult, LostFile> {
    let clock = ContinuousClock()
    var running = ExtractorIdentity(name: first.extractor, version: version(of: first))
    var timeout = first.limits.timeoutSeconds
    var memoryCap = first.limits.maxMemoryBytes
    var deadline = clock.now.advanced(by: .seconds(timeout))
    func lost(_ failure: WorkerFailure) -> Result<ExtractionResult, LostFile> {
      .failure(LostFile(failure: failure, extractor: running))
    }
    do {
      try worker.send(job)
    } catch {
      // The worker died since its last job: not this file's doing.
      return lost(WorkerFailure(kind: .killedFromOutside, reason: "the worker was gone: \(error)"))
    }
    while true {
      switch worker.next(until: deadline) {
      case .message(.begin(let identity, let seconds)):
        running = identity
        timeout = seconds
        memoryCap =
          rules.first { $0.extractor == identity.name }?.limits.maxMemoryBytes ?? memoryCap
        deadline = clock.now.advanced(by: .seconds(seconds))
      case .message(.result(let result)):
        return .success(result)
      case .message(.ready):
        return lost(.garbled("a second ready message"))
      case .timedOut:
        return lost(.timedOut(after: timeout))
      case .garbled(let detail):
        return lost(.garbled(detail))
      case .ended:
        let termination = worker.reap()
        return lost(
          .ended(termination, lastError: worker.lastErrorLine, memoryCap: memoryCap))
      }
    }
  }

  private func version(of rule: ExtractionRule) -> Int {
    service.catalog.version(of: rule.extractor) ?? 0
  }

  private func count(_ failure: WorkerFailure) {
    switch failure.kind {
    case .crashed: statistics.crashed.add(1, ordering: .relaxed)
    case .timedOut: statistics.timedOut.add(1, ordering: .relaxed)
    case .outOfMemory: statistics.outOfMemory.add(1, ordering: .relaxed)
    case .garbled: statistics.garbled.add(1, ordering: .relaxed)
    case .killedFromOutside: statistics.killedFromOutside.add(1, ordering: .relaxed)
    }
  }

  // MARK: Workers

  /// An idle worker, or a new one; nil when none can be started (the file is then indexed
  /// without extraction, as if no rule matched).
  private func checkout() -> WorkerProcess? {
    if let worker = idle.withLock({ $0.popLast() }) { return worker }
    do {
      let (worker, report) = try Self.start(
        options: options, hello: hello, statistics: statistics)
      noteStarted(report)
      return worker
    } catch {
      lastStartFailure.withLock { $0 = "\(error)" }
      return nil
    }
  }

  private func noteStarted(_ report: ConfinementReport) {
    let first = firstReport.withLock { first -> Bool in
      guard first == nil else { return false }
      first = report
      return true
    }
    if first { onFirstStart?(report) }
  }

  private static func start(
    options: Options, hello: WorkerHello, statistics: WorkerPoolStatistics
  ) throws -> (WorkerProcess, ConfinementReport) {
    let worker = try WorkerProcess.spawn(
      executable: options.executable, arguments: options.arguments,
      environment: options.environment)
    func failed(_ reason: String) -> WorkerStartError {
      worker.kill()
      return WorkerStartError(executable: options.executable, reason: reason)
    }
    do {
      try worker.send(hello)
    } catch {
      throw failed("it exited at once (\(worker.lastErrorLine ?? "\(error)"))")
    }
    let deadline = ContinuousClock().now.advanced(by: .seconds(options.startTimeoutSeconds))
    switch worker.next(until: deadline) {
    case .message(.ready(let report)):
      statistics.started.add(1, ordering: .relaxed)
      return (worker, report)
    case .timedOut:
      throw failed("it did not answer within \(options.startTimeoutSeconds) s")
    case .ended:
      throw failed("it exited at once (\(worker.lastErrorLine ?? "no message"))")
    case .garbled(let detail):
      throw failed(detail)
    case .message:
      throw failed("it answered out of order")
    }
  }
}
