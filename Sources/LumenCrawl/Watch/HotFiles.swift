/// Files rewritten over and over (a log, a download, an editor's autosave): after a file is
/// read, a new write within `interval` waits until the interval is over, and each time that
/// happens again the interval doubles, up to `maximum`; a quiet file starts over. So a file
/// rewritten a hundred times in a second is read twice (at once, then once the burst is over),
/// while an ordinary save is read at once. Baloo backs off hot files the same way.
struct HotFiles {
  private struct Entry {
    var lastRead: UInt64
    var interval: UInt64
  }

  let interval: UInt64
  let maximum: UInt64
  private var entries: [String: Entry] = [:]
  private static let capacity = 10_000

  init(interval: UInt64, maximum: UInt64) {
    self.interval = max(1, interval)
    self.maximum = max(interval, maximum)
  }

  /// When a write to `path` seen at `now` should be read.
  func due(_ path: String, now: UInt64) -> UInt64 {
    guard let entry = entries[path], now < entry.lastRead + entry.interval else { return now }
    return entry.lastRead + entry.interval
  }

  /// `path` was read (after a write) at `now`.
  mutating func didRead(_ path: String, now: UInt64) {
    if let entry = entries[path], now < entry.lastRead + 2 * entry.interval {
      // Written again within its interval: hotter.
      let hotter = now < entry.lastRead + entry.interval + interval
      entries[path] = Entry(
        lastRead: now, interval: hotter ? min(maximum, entry.interval * 2) : entry.interval)
    } else {
      entries[path] = Entry(lastRead: now, interval: interval)
    }
    if entries.count > Self.capacity { prune(now: now) }
  }

  /// Forgets files quiet for longer than their interval.
  mutating func prune(now: UInt64) {
    entries = entries.filter { now < $0.value.lastRead + 2 * $0.value.interval }
  }
}
