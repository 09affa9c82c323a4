/// Files rewritten over and over (a log, a download, an editor's autosave, a build). The first
/// write is read at once; a write within `interval` of that read makes the file hot, and a hot
/// file is read again only once it has been quiet for `quiet`, and at least `interval` after
/// the last read (a file that never stops changing is still read every `maximum`). So a file
/// rewritten a hundred times in a second is read twice, once at the start and once after the
/// burst, while an ordinary save is read at once. Baloo defers hot files the same way.
struct HotFiles {
  private struct Entry {
    var lastRead: UInt64
    /// Written since it was read while hot: the next read waits for the burst to end.
    var deferring: Bool
  }

  let interval: UInt64
  let quiet: UInt64
  let maximum: UInt64
  private var entries: [String: Entry] = [:]
  private static let capacity = 10_000

  init(interval: UInt64, quiet: UInt64, maximum: UInt64) {
    self.interval = max(1, interval)
    self.quiet = quiet
    self.maximum = max(interval, maximum)
  }

  /// When a write to `path` seen at `now` should be read. Each write to a hot file moves its
  /// read later (to when it has been quiet long enough), so the caller replaces the time it
  /// had scheduled rather than keeping the earlier one.
  mutating func due(_ path: String, now: UInt64) -> UInt64 {
    guard var entry = entries[path], entry.deferring || now < entry.lastRead + interval else {
      return now
    }
    entry.deferring = true
    entries[path] = entry
    return min(max(entry.lastRead + interval, now + quiet), entry.lastRead + maximum)
  }

  /// Whether writes to `path` are being deferred.
  func isHot(_ path: String, now: UInt64) -> Bool {
    guard let entry = entries[path] else { return false }
    return entry.deferring || now < entry.lastRead + interval
  }

  /// `path` was read (after a write) at `now`.
  mutating func didRead(_ path: String, now: UInt64) {
    entries[path] = Entry(lastRead: now, deferring: false)
    if entries.count > Self.capacity { prune(now: now) }
  }

  /// A hot file renamed: its state follows it.
  mutating func rename(_ source: String, to destination: String) {
    if let entry = entries.removeValue(forKey: source) { entries[destination] = entry }
  }

  /// Forgets files quiet for longer than `interval`.
  mutating func prune(now: UInt64) {
    entries = entries.filter { $0.value.deferring || now < $0.value.lastRead + interval }
  }
}
