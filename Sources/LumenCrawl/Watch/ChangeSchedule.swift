/// The paths waiting to be brought up to date, each with the time it is due: how the watcher
/// coalesces events. However many events a path gets before it is due, it is looked at once.
struct ChangeSchedule {
  struct Work: Equatable {
    var due: UInt64
    /// A folder whose whole subtree must be walked (new, moved in, its ignore rules changed),
    /// not only its own item.
    var scan: Bool
  }

  private(set) var pending: [String: Work] = [:]

  var count: Int { pending.count }
  var isEmpty: Bool { pending.isEmpty }

  /// Schedules `path` at `due`, or earlier if it already was; `scan` sticks once asked for.
  mutating func schedule(_ path: String, at due: UInt64, scan: Bool = false) {
    if var work = pending[path] {
      work.due = min(work.due, due)
      work.scan = work.scan || scan
      pending[path] = work
    } else {
      pending[path] = Work(due: due, scan: scan)
    }
  }

  /// Schedules `path` at exactly `due`, later or earlier than before (a hot file's read moves
  /// with each write); a scan asked for sticks.
  mutating func reschedule(_ path: String, at due: UInt64) {
    pending[path] = Work(due: due, scan: pending[path]?.scan ?? false)
  }

  /// The earliest due time, if anything is pending.
  var nextDue: UInt64? { pending.values.lazy.map(\.due).min() }

  /// Removes and returns what is due at `now`, sorted by path (parents before children), at
  /// most `limit` of it: the rest stays due for the next turn, so that the watcher goes back
  /// to reading events between batches and the kernel's queue does not overflow meanwhile.
  mutating func takeDue(now: UInt64, limit: Int = .max) -> [(path: String, scan: Bool)] {
    let due = pending.filter { $0.value.due <= now }.map { ($0.key, $0.value.scan) }
      .sorted { $0.0 < $1.0 }.prefix(limit)
    for (path, _) in due { pending[path] = nil }
    return due.map { (path: $0.0, scan: $0.1) }
  }

  /// Pending work at or below `source` follows a move to `destination`.
  mutating func rebase(_ source: String, to destination: String) {
    let moved = pending.filter { PathText.isWithin($0.key, source) }
    guard !moved.isEmpty else { return }
    for (path, _) in moved { pending[path] = nil }
    for (path, work) in moved {
      let renamed = PathText.rebase(path, from: source, to: destination)
      schedule(renamed, at: work.due, scan: work.scan)
    }
  }

  /// Drops everything at or below `folder` (a rescan of it supersedes it).
  mutating func removeAll(under folder: String) {
    pending = pending.filter { !PathText.isWithin($0.key, folder) }
  }

  mutating func removeAll() { pending.removeAll() }
}
