import Synchronization

/// What the worker pool went through during a crawl, for `lumen index --json`, the tests and
/// bench/faults: how many workers were started, and how many files a worker died on.
public final class WorkerPoolStatistics: Sendable {
  /// Workers started (the first, the replacements, and any started for parallelism).
  public let started = Atomic<Int>(0)
  /// Jobs sent to a worker.
  public let jobs = Atomic<Int>(0)
  /// Workers that crashed (a signal or an error exit) on a file.
  public let crashed = Atomic<Int>(0)
  /// Workers killed for overrunning a rule's `Timeout=`.
  public let timedOut = Atomic<Int>(0)
  /// Workers that ran out of their `MaxMemory=`.
  public let outOfMemory = Atomic<Int>(0)
  /// Workers that broke the frame protocol.
  public let garbled = Atomic<Int>(0)
  /// Workers killed from outside (SIGTERM, SIGINT, SIGHUP, a stray SIGKILL); their file was
  /// tried once more on a fresh worker rather than blamed.
  public let killedFromOutside = Atomic<Int>(0)
  /// Files left unread because no worker could be started for them; the next crawl reads
  /// them.
  public let unstarted = Atomic<Int>(0)

  public init() {}

  public struct Snapshot: Sendable, Equatable, Codable {
    public var started: Int
    public var jobs: Int
    public var crashed: Int
    public var timedOut: Int
    public var outOfMemory: Int
    public var garbled: Int
    public var killedFromOutside: Int
    public var unstarted: Int

    /// Workers lost to a file: each one a crash the indexer survived.
    public var contained: Int { crashed + timedOut + outOfMemory + garbled }
  }

  public var snapshot: Snapshot {
    Snapshot(
      started: started.load(ordering: .relaxed), jobs: jobs.load(ordering: .relaxed),
      crashed: crashed.load(ordering: .relaxed), timedOut: timedOut.load(ordering: .relaxed),
      outOfMemory: outOfMemory.load(ordering: .relaxed), garbled: garbled.load(ordering: .relaxed),
      killedFromOutside: killedFromOutside.load(ordering: .relaxed),
      unstarted: unstarted.load(ordering: .relaxed))
  }
}
