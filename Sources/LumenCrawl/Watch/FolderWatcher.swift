import Foundation
import Logging
import Synchronization

/// `lumen watch`: keeps an index equal to what a fresh crawl of its roots would give, by
/// following inotify events. First an incremental crawl of every root (which also places a
/// watch on every folder in scope, before listing it), then changes as they happen, through
/// the crawl's own scope rules, comparison and batches:
///
/// - a file is read when it is closed after writing; bursts coalesce (`HotFiles`);
/// - a permission or time change rewrites file-system attributes only, never re-extracts;
/// - a rename (paired by cookie) moves the item, or a folder with everything below it, in one
///   update; moved out of the roots is deleted, moved in is new; an atomic save is an update;
/// - a queue overflow rescans every root; folders the watch limit leaves unwatched are
///   rescanned periodically; a root that disappears is left to expire and is crawled again
///   when it comes back.
///
/// Runs on a thread of its own until `stop()`, then commits what it holds.
public final class FolderWatcher: Sendable {
  public struct Options: Sendable {
    /// A batch is committed at most this long after its first change.
    public var commitDelay: Duration = .milliseconds(100)
    /// ... or as soon as no event came for this long, so a lone change is visible at once.
    public var quietPeriod: Duration = .milliseconds(5)
    /// A created file not yet closed is looked at after this (a link, a FIFO, `mknod`).
    public var createSettle: Duration = .milliseconds(50)
    /// A file modified but not closed (a log kept open) is looked at after this.
    public var modifySettle: Duration = .seconds(2)
    /// A folder whose entries changed has its own item (mtime) refreshed after this.
    public var folderDelay: Duration = .milliseconds(50)
    /// A file written again this soon after it was read is hot: it is read again once quiet
    /// for `hotQuiet`, at least `hotInterval` after the last read and at most `hotMaximum`
    /// after it (see `HotFiles`).
    public var hotInterval: Duration = .seconds(1)
    public var hotQuiet: Duration = .milliseconds(200)
    public var hotMaximum: Duration = .seconds(60)
    /// How long a `movedFrom` waits for its `movedTo`.
    public var moveGrace: Duration = .milliseconds(50)
    /// How often folders left unwatched (watch limit) are rescanned.
    public var rescanInterval: Duration = .seconds(300)
    /// How often a missing root is looked for.
    public var rootPollInterval: Duration = .seconds(2)
    /// How often the roots' items are renewed (they expire `expirationDays` after the last
    /// renewal).
    public var renewInterval: Duration = .seconds(3600)
    /// At most this many watches (nil: as many as the kernel allows). Beyond it folders are
    /// handled as when the kernel's limit is reached.
    public var maximumWatches: Int? = nil
    /// The index writer's page cache once the first crawl is over (KiB): enough for the
    /// watcher's small transactions, and it keeps a long-running watcher small.
    public var writerCacheKiB = 16384
    /// Paths (and what starts with them) the watcher never indexes: the index's own files, whose
    /// every write would otherwise be an event.
    public var ignoredPrefixes: [String] = []

    public init() {}
  }

  /// What the watcher is doing, for tests and `lumen status`.
  public struct Activity: Sendable, Equatable {
    /// Loop turns so far.
    public var iteration = 0
    /// The initial crawl is over and events are being followed.
    public var watching = false
    /// At the end of the last turn nothing was waiting: no event unread, no path due later,
    /// no change uncommitted.
    public var settled = false
    public var events = 0
    public var overflows = 0
    public var rescans = 0
    /// Transactions the watcher committed for single-path changes (walks not counted).
    public var commits = 0
  }

  public let pipeline: IndexingPipeline
  public let options: Options
  let logger: Logger
  let lock: WatcherLock?
  let stopRequested = Atomic<Bool>(false)
  /// Tests: stop reading events for a while (the kernel queue fills up and overflows).
  let readingPaused = Atomic<Bool>(false)
  let currentActivity = Mutex(Activity())
  let currentStatus: Mutex<WatcherStatus?> = Mutex(nil)

  public init(
    pipeline: IndexingPipeline, options: Options = Options(), logger: Logger,
    lock: WatcherLock? = nil
  ) {
    self.pipeline = pipeline
    self.options = options
    self.logger = logger
    self.lock = lock
  }

  /// Crawls, then follows changes until `stop()`; returns once what was pending is committed.
  /// Throws when inotify cannot be used at all.
  public func run() async throws {
    let outcome = Outcome()
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let thread = Thread { [self] in
        do {
          let session = try WatchSession(watcher: self)
          session.run()
          outcome.value.withLock { $0 = .success(()) }
        } catch {
          outcome.value.withLock { $0 = .failure(error) }
        }
        continuation.resume()
      }
      thread.name = "lumen-watch"
      thread.start()
    }
    try outcome.value.withLock { $0 }?.get()
  }

  private final class Outcome: Sendable {
    let value = Mutex<Result<Void, any Error>?>(nil)
  }

  /// Stops following changes (and an ongoing crawl) soon; `run()` then commits and returns.
  /// Safe from any thread or signal handler.
  public func stop() {
    stopRequested.store(true, ordering: .releasing)
    pipeline.stop()
  }

  public var activity: Activity { currentActivity.withLock { $0 } }

  /// The last status written (at most a second old); nil before the first.
  public var status: WatcherStatus? { currentStatus.withLock { $0 } }
}
