import Dispatch
import GRDB

/// A passive checkpoint on a connection of its own, on a thread of its own: it copies into the
/// index file the log pages of transactions already committed, while the index's writer goes
/// on with the next transaction (SQLite lets a checkpointer and a writer work side by side in
/// WAL mode; the checkpointer never takes the write lock). Best effort: a checkpoint that
/// cannot run leaves the pages in the log for the next one.
struct LogCopier: Sendable {
  private let done: DispatchGroup

  static func start(databasePath: String) -> LogCopier {
    let done = DispatchGroup()
    done.enter()
    DispatchQueue.global(qos: .utility).async {
      defer { done.leave() }
      var configuration = Configuration()
      configuration.busyMode = .immediateError
      guard let connection = try? DatabaseQueue(path: databasePath, configuration: configuration)
      else { return }
      _ = try? connection.writeWithoutTransaction { db in try db.checkpoint(.passive) }
      try? connection.close()
    }
    return LogCopier(done: done)
  }

  /// Waits, off Swift's cooperative threads, until the checkpoint has ended.
  func finished() async {
    await withCheckedContinuation { continuation in
      done.notify(queue: .global(qos: .utility)) { continuation.resume() }
    }
  }
}
