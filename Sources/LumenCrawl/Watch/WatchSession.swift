import Foundation
import Glibc
import Logging
import LumenModel
import LumenStore
import Synchronization

/// One run of a `FolderWatcher`, on its thread: the inotify instance, the watches, what is
/// scheduled, and the loop that ties them together. Events become scheduled paths
/// (`WatchSession+Events`); due paths are reconciled by the `LiveIndexer`; rescans, roots and
/// status are `WatchSession+Maintenance`.
final class WatchSession {
  let watcher: FolderWatcher
  let options: FolderWatcher.Options
  let logger: Logger
  let pipeline: IndexingPipeline
  let scope: Scope
  let inotify: Inotify
  let reader: EventReader
  let table: WatchTable
  let placer: WatchPlacer
  let live: LiveIndexer
  var schedule = ChangeSchedule()
  var pairing: MovePairing
  var hot: HotFiles
  /// Paths scheduled because their content was written (they count for `hot`).
  var contentWrites: Set<String> = []
  var overflowed = false
  var lastEventAt: UInt64 = 0
  /// Since when timers have waited for unread events (nil: nothing waits); see `turn()`.
  var holdingSince: UInt64?
  /// Roots that are gone (deleted, moved away, unmounted), looked for every `rootPollInterval`.
  var missingRoots: Set<String> = []
  let started = Date()
  var activity = FolderWatcher.Activity()
  var eventsSinceStatus = 0
  var lastStatusAt: UInt64 = 0
  var nextRescanAt: UInt64 = 0
  var nextRootPollAt: UInt64 = 0
  var nextRenewalAt: UInt64 = 0
  /// Every five minutes the caches the changes filled are given back.
  var nextMemoryReleaseAt: UInt64 = 0
  var committedByRuns = 0
  var lastError: String?

  init(watcher: FolderWatcher) throws {
    self.watcher = watcher
    options = watcher.options
    logger = watcher.logger
    pipeline = watcher.pipeline
    scope = pipeline.scope
    inotify = try Inotify()
    reader = EventReader(inotify: inotify, capacity: Self.eventCapacity) {
      [watcher] in watcher.readingPaused.load(ordering: .relaxed)
    }
    table = WatchTable(inotify: inotify, maximum: options.maximumWatches)
    placer = WatchPlacer(table: table, logger: logger, rescanInterval: options.rescanInterval)
    live = LiveIndexer(pipeline: pipeline)
    pairing = MovePairing(grace: Monotonic.nanos(options.moveGrace))
    hot = HotFiles(
      interval: Monotonic.nanos(options.hotInterval), quiet: Monotonic.nanos(options.hotQuiet),
      maximum: Monotonic.nanos(options.hotMaximum))
  }

  var stopping: Bool { watcher.stopRequested.load(ordering: .acquiring) }

  func run() {
    reader.start()
    start()
    while !stopping {
      turn()
    }
    reader.stop()
    live.commit()
    activity.settled = live.pendingCount == 0
    publish(force: true)
    logger.info("stopped; what was pending is committed")
  }

  /// Watches and crawls the roots that exist.
  private func start() {
    let present = scope.roots.map(\.path).filter { root in
      guard Self.isFolder(root) else {
        missingRoots.insert(root)
        logger.warning("\(FaithfulPath.display(root)): not found; watching for it to appear")
        return false
      }
      return true
    }
    publish(force: true)
    logger.info(
      "crawling \(present.map(FaithfulPath.display).joined(separator: ", ")) before watching")
    crawl(present, everything: missingRoots.isEmpty)
    // The crawl is done with its large page cache; the changes to come are small.
    do {
      try Blocking.run { [index = pipeline.index, kibibytes = options.writerCacheKiB] in
        try await index.limitWriterCache(kibibytes: kibibytes)
      }
    } catch {
      note(error: "cannot limit the index's cache: \(error)")
    }
    releaseMemory()
    activity.watching = true
    let now = Monotonic.now()
    nextRescanAt = now + Monotonic.nanos(options.rescanInterval)
    nextRootPollAt = now + Monotonic.nanos(options.rootPollInterval)
    nextRenewalAt = now + Monotonic.nanos(options.renewInterval)
    nextMemoryReleaseAt = now + 300_000_000_000
    logger.info(
      "watching \(table.count) folders under \(present.count) root(s)",
      metadata: ["watchLimit": "\(WatcherStatus.watchLimit().map(String.init) ?? "?")"])
    publish(force: true)
  }

  /// One turn of the loop: wait for events or the next timer, read, reconcile what is due,
  /// commit when the batch is old enough or things went quiet, then maintenance.
  private func turn() {
    activity.iteration += 1
    let before = Monotonic.now()
    let timeout = millisecondsUntilNextWake(now: before)
    let (events, lost) = reader.take(waitingUpTo: timeout)
    if lost { overflowed = true }
    let readSome = !events.isEmpty
    if readSome {
      lastEventAt = Monotonic.now()
      activity.events += events.count
      eventsSinceStatus += events.count
      handle(events)
    }
    if let failure = reader.takeFailure() { note(error: failure) }
    if schedule.count > Self.pendingLimit {
      // More has changed than is worth tracking path by path: a rescan is cheaper (and keeps
      // memory bounded).
      overflowed = true
    }
    if overflowed {
      recoverFromOverflow()
      return
    }
    let now = Monotonic.now()
    if mayFireTimers(now: now) {
      for departure in pairing.expired(now: now) { departed(departure, now: now) }
      processDue(now: now)
    }
    if live.pendingCount > 0 {
      let oldest = live.oldestChange ?? now
      if now >= oldest + Monotonic.nanos(options.commitDelay)
        || (!readSome && now >= lastEventAt + Monotonic.nanos(options.quietPeriod))
      {
        live.commit()
      }
    }
    maintain(now: Monotonic.now())
    let backlog = reader.backlog
    activity.settled =
      schedule.isEmpty && pairing.isEmpty && live.pendingCount == 0
      && backlog.events == 0 && backlog.kernelBytes == 0 && !overflowed
    activity.commits = live.commits
    watcher.currentActivity.withLock { $0 = activity }
  }

  /// Whether departures may expire and due paths be read now. A timer measures quiet time
  /// (no `movedTo` for a `movedFrom`, no write to a hot file), and events still unread, in the
  /// kernel's queue or the reader's, may end that quiet: when this thread was slow (a long
  /// commit, a busy machine) a rename's two halves would otherwise be taken for a deletion and
  /// a creation, and a burst of writes for several. So timers wait while events are unread,
  /// at most `holdLimit`, so that a flood of events never starves the reads it schedules.
  private func mayFireTimers(now: UInt64) -> Bool {
    let backlog = reader.backlog
    guard backlog.events > 0 || backlog.kernelBytes > 0 else {
      holdingSince = nil
      return true
    }
    let since = holdingSince ?? now
    holdingSince = since
    if now >= since + Self.holdLimit {
      holdingSince = nil
      return true
    }
    return false
  }

  /// The longest time unread events hold timers back.
  static let holdLimit: UInt64 = 1_000_000_000

  private func millisecondsUntilNextWake(now: UInt64) -> Int32 {
    var wake = now + 250_000_000
    if let due = schedule.nextDue { wake = min(wake, due) }
    if let deadline = pairing.nextDeadline { wake = min(wake, deadline) }
    if live.pendingCount > 0, let oldest = live.oldestChange {
      wake = min(
        wake, oldest + Monotonic.nanos(options.commitDelay),
        lastEventAt + Monotonic.nanos(options.quietPeriod))
    }
    wake = min(wake, lastStatusAt + 1_000_000_000)
    if !missingRoots.isEmpty { wake = min(wake, nextRootPollAt) }
    // Timers held for unread events: wait for the reader (it wakes this thread) rather than
    // spin.
    if holdingSince != nil { wake = max(wake, now + 2_000_000) }
    guard wake > now else { return 0 }
    return Int32((wake - now + 999_999) / 1_000_000)
  }

  /// Reconciles the paths that are due; walks the folders that are new or asked for a scan.
  private func processDue(now: UInt64) {
    let due = schedule.takeDue(now: now, limit: pipeline.options.batchSize)
    guard !due.isEmpty else { return }
    var scans: [String] = []
    var gone: [String] = []
    for (path, scan) in due {
      guard !isIgnored(path), !isUnderMissingRoot(path) else { continue }
      if contentWrites.remove(path) != nil { hot.didRead(path, now: now) }
      if (try? FileStatus.read(path: path)) == nil {
        gone.append(path)
        continue
      }
      let outcome = live.reconcile(path)
      if logger.logLevel <= .debug {
        logger.debug("\(FaithfulPath.display(path)): \(outcome)")
      }
      if case .folder(let isNew) = outcome, scan || isNew || !table.isWatched(path) {
        scans.append(path)
      }
    }
    if !scans.isEmpty { walk(Self.outermost(scans)) }
    // Deletions last, as in a crawl: a folder moved into a folder made just before (whose
    // watch came too late for the `movedTo`) is found by the new folder's walk as a move,
    // keeping its items; deleting first would make the walk read every file again.
    for path in gone { _ = live.reconcile(path) }
  }

  /// Paths scheduled at once beyond which the watcher rescans instead.
  static let pendingLimit = 100_000
  /// Events read but not yet handled beyond which they are dropped as an overflow (about
  /// 150 bytes each).
  static let eventCapacity = 200_000

  // MARK: Helpers

  func isIgnored(_ path: String) -> Bool {
    options.ignoredPrefixes.contains { path.hasPrefix($0) }
  }

  func isUnderMissingRoot(_ path: String) -> Bool {
    missingRoots.contains { PathText.isWithin(path, $0) }
  }

  func note(error: String) {
    lastError = error
    logger.error("\(error)")
  }

  static func isFolder(_ path: String) -> Bool {
    (try? FileStatus.read(path: path))?.kind == .directory
  }

  /// The folders of `paths` that no other one contains.
  static func outermost(_ paths: [String]) -> [String] {
    var result: [String] = []
    for path in Set(paths).sorted() where !result.contains(where: { PathText.isWithin(path, $0) }) {
      result.append(path)
    }
    return result
  }
}
