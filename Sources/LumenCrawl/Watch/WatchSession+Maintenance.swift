import CKernelCalls
import Foundation
import Glibc
import LumenModel
import LumenStore
import Synchronization

/// The watcher's walks (the first crawl, new folders, overflows, unwatched folders, roots that
/// come back), its timers, and its status.
extension WatchSession {
  func watch(_ folder: String) { placer.watch(folder) }

  /// The first crawl: every root (`everything`) or the ones present, each watched first.
  func crawl(_ roots: [String], everything: Bool) {
    for root in roots { watch(root) }
    run(subtrees: everything ? nil : roots, listed: nil)
  }

  /// Walks these folders (each with everything below it), watching each folder before it is
  /// listed. What the batch holds is committed first, so the walk compares with the index as
  /// it is.
  func walk(_ folders: [String], quietly: Bool = true) {
    guard !folders.isEmpty else { return }
    live.commit()
    for folder in folders { watch(folder) }
    activity.rescans += 1
    run(subtrees: folders, listed: nil, quietly: quietly)
  }

  /// Runs the crawl pipeline over `subtrees` (nil: every root); logs its summary at info level
  /// unless `quietly` (a new folder's walk is routine: debug).
  private func run(subtrees: [String]?, listed: Listed?, quietly: Bool = false) {
    let watchFolder: @Sendable (String) -> Void = { [placer] folder in
      placer.watch(folder)
      listed?.folders.withLock { _ = $0.insert(folder) }
    }
    do {
      let summary = try Blocking.run { [pipeline] in
        try await pipeline.run(startingAt: subtrees, willList: watchFolder)
      }
      committedByRuns += summary.added + summary.updated + summary.removed + summary.moved
      let counts =
        "\(summary.added) added, \(summary.updated) updated, \(summary.moved) moved, "
        + "\(summary.removed) removed, \(summary.unchanged) unchanged, \(summary.failed) failed"
      let what =
        subtrees.map { $0.map(FaithfulPath.display).joined(separator: ", ") } ?? "every root"
      logger.log(
        level: quietly ? .debug : .info,
        "crawled \(what): \(counts) in \(String(format: "%.2f", summary.seconds)) s")
      for failure in summary.errors.prefix(20) {
        logger.warning("\(FaithfulPath.display(failure.path)): \(failure.reason)")
      }
    } catch {
      note(error: "crawl failed: \(error)")
    }
    releaseMemory()
  }

  /// After a walk: SQLite's page caches (up to 64 MiB per connection) and what the walk's
  /// threads freed go back to the system, so a watcher idling between changes stays small.
  func releaseMemory() {
    pipeline.index.releaseMemory()
    lumen_malloc_trim()
  }

  /// Events were lost: every root is crawled again (incrementally: unchanged files are not
  /// read), which leaves the index as a fresh crawl would; watches of folders that no longer
  /// exist are dropped.
  func recoverFromOverflow() {
    overflowed = false
    activity.overflows += 1
    logger.warning("the inotify queue overflowed and events were lost: rescanning every root")
    live.commit()
    schedule.removeAll()
    _ = pairing.removeAll()
    contentWrites.removeAll()
    let present = scope.roots.map(\.path).filter { !missingRoots.contains($0) }
    let listed = Listed()
    listed.folders.withLock { $0.formUnion(present) }
    for root in present { watch(root) }
    activity.rescans += 1
    run(subtrees: missingRoots.isEmpty ? nil : present, listed: listed)
    table.retain(onlyUnder: present, kept: listed.folders.withLock { $0 })
  }

  /// A root was deleted, moved away or unmounted: its watches go, its items stay until they
  /// expire (the domain is no longer renewed), and it is looked for until it comes back.
  func rootGone(_ root: String) {
    guard !missingRoots.contains(root) else { return }
    live.commit()
    missingRoots.insert(root)
    table.remove(under: root)
    schedule.removeAll(under: root)
    logger.warning(
      """
      \(FaithfulPath.display(root)) is gone (deleted, moved or unmounted): its items stay \
      searchable until they expire, and it is crawled again if it comes back
      """)
    nextRootPollAt = min(
      nextRootPollAt, Monotonic.now() + Monotonic.nanos(options.rootPollInterval))
  }

  /// Timers: missing roots, unwatched folders, domain renewal, the status file.
  func maintain(now: UInt64) {
    if !missingRoots.isEmpty && now >= nextRootPollAt {
      nextRootPollAt = now + Monotonic.nanos(options.rootPollInterval)
      for root in missingRoots.sorted() where rootIsBack(root) {
        missingRoots.remove(root)
        logger.info("\(FaithfulPath.display(root)) is back: crawling it again")
        walk([root], quietly: false)
      }
    }
    if now >= nextRescanAt {
      nextRescanAt = now + Monotonic.nanos(options.rescanInterval)
      let unwatched = table.unwatchedTops()
      if !unwatched.isEmpty {
        logger.info("rescanning \(unwatched.count) unwatched folder(s)")
        table.clearUnwatched(under: unwatched)
        walk(unwatched, quietly: false)
      }
    }
    if now >= nextRenewalAt {
      nextRenewalAt = now + Monotonic.nanos(options.renewInterval)
      renewRoots()
    }
    if now >= nextMemoryReleaseAt {
      nextMemoryReleaseAt = now + 300_000_000_000
      releaseMemory()
    }
    publish(force: false)
  }

  /// A root is back when it is a folder again on the device it was on.
  private func rootIsBack(_ root: String) -> Bool {
    guard let status = try? FileStatus.read(path: root), status.kind == .directory else {
      return false
    }
    guard let device = scope.roots.first(where: { $0.path == root })?.device else { return true }
    return status.device == device
  }

  /// Keeps the present roots' items from expiring while the watcher runs.
  private func renewRoots() {
    let until = pipeline.options.clock().addingTimeInterval(
      Double(pipeline.options.expirationDays) * 86_400)
    for root in scope.roots.map(\.path) where !missingRoots.contains(root) {
      do {
        try Blocking.run { [index = pipeline.index] in
          try await index.renewDomain(FileDomain.identifier(forRoot: root), until: until)
        }
      } catch {
        note(error: "cannot renew the items of \(root): \(error)")
      }
    }
  }

  /// Rewrites the status (and its file) at most once a second, or now when `force`.
  func publish(force: Bool) {
    let now = Monotonic.now()
    guard force || now >= lastStatusAt + 1_000_000_000 else { return }
    let seconds = max(0.001, Double(now - lastStatusAt) / 1e9)
    let rate = lastStatusAt == 0 ? 0 : Double(eventsSinceStatus) / seconds
    lastStatusAt = now
    eventsSinceStatus = 0
    if let error = live.lastError.withLock({ error in
      defer { error = nil }; return error
    }) {
      lastError = error
    }
    let roots = scope.roots.map { root in
      WatcherStatus.Root(
        path: root.path,
        state: missingRoots.contains(root.path)
          ? "missing" : (activity.watching ? "watching" : "crawling"))
    }
    let status = WatcherStatus(
      pid: getpid(), started: ISO8601Dates.format(started),
      updated: ISO8601Dates.format(Date()), roots: roots, watches: table.count,
      watchLimit: WatcherStatus.watchLimit(),
      queueDepth: reader.backlog.events + schedule.count + live.pendingCount,
      kernelQueueBytes: inotify.queuedBytes,
      unwatchedFolders: table.unwatched(limit: 100), unwatchedCount: table.unwatchedCount,
      rescanSeconds: Double(options.rescanInterval.components.seconds),
      eventsPerSecond: (rate * 10).rounded() / 10, events: activity.events,
      overflows: activity.overflows, rescans: activity.rescans,
      committed: live.committed + committedByRuns, lastError: lastError)
    watcher.currentStatus.withLock { $0 = status }
    watcher.lock?.writeStatus(status)
  }
}

/// The folders a rescan listed, gathered from the walk's threads.
final class Listed: Sendable {
  let folders = Mutex<Set<String>>([])
}
