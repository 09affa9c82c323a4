import Foundation

/// What a running watcher reports about itself, rewritten at most once a second into
/// `<index>.watch.json` next to the index, where `lumen status` reads it.
public struct WatcherStatus: Codable, Sendable, Equatable {
  public struct Root: Codable, Sendable, Equatable {
    public var path: String
    /// "watching", "crawling", or "missing" (deleted or unmounted: its items expire unless it
    /// comes back).
    public var state: String

    public init(path: String, state: String) {
      self.path = path
      self.state = state
    }
  }

  public var pid: Int32
  /// ISO 8601.
  public var started: String
  public var updated: String
  public var roots: [Root]
  /// inotify watches in use, and the limit (the smaller of `fs.inotify.max_user_watches` and
  /// the user namespace's `user.max_inotify_watches`).
  public var watches: Int
  public var watchLimit: Int?
  /// Paths waiting to be looked at plus changes waiting to be committed.
  public var queueDepth: Int
  /// Bytes of events waiting in the kernel's inotify queue.
  public var kernelQueueBytes: Int
  /// Folders left unwatched because the watch limit was reached (the first 100), and how many
  /// there are; they are rescanned every `rescanSeconds`.
  public var unwatchedFolders: [String]
  public var unwatchedCount: Int
  public var rescanSeconds: Double
  public var eventsPerSecond: Double
  public var events: Int
  /// Queue overflows (events lost, everything rescanned) and rescans of any kind.
  public var overflows: Int
  public var rescans: Int
  /// Changes written to the index since the watcher started.
  public var committed: Int
  public var lastError: String?

  public init(
    pid: Int32, started: String, updated: String, roots: [Root], watches: Int, watchLimit: Int?,
    queueDepth: Int, kernelQueueBytes: Int, unwatchedFolders: [String], unwatchedCount: Int,
    rescanSeconds: Double, eventsPerSecond: Double, events: Int, overflows: Int, rescans: Int,
    committed: Int, lastError: String?
  ) {
    self.pid = pid
    self.started = started
    self.updated = updated
    self.roots = roots
    self.watches = watches
    self.watchLimit = watchLimit
    self.queueDepth = queueDepth
    self.kernelQueueBytes = kernelQueueBytes
    self.unwatchedFolders = unwatchedFolders
    self.unwatchedCount = unwatchedCount
    self.rescanSeconds = rescanSeconds
    self.eventsPerSecond = eventsPerSecond
    self.events = events
    self.overflows = overflows
    self.rescans = rescans
    self.committed = committed
    self.lastError = lastError
  }

  /// The user's inotify watch limit: the smaller of the system-wide setting and the user
  /// namespace's (they are enforced together).
  public static func watchLimit() -> Int? {
    [
      "/proc/sys/fs/inotify/max_user_watches", "/proc/sys/user/max_inotify_watches",
    ].compactMap { path in
      (try? String(contentsOfFile: path, encoding: .utf8)).flatMap {
        Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
      }
    }.min()
  }

  public func encoded() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(self)) ?? Data()
  }

  public static func decode(_ data: Data) -> WatcherStatus? {
    try? JSONDecoder().decode(WatcherStatus.self, from: data)
  }
}
