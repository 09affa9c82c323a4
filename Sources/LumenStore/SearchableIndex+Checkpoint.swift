import GRDB
import GRDBSQLite

extension SearchableIndex {
  /// Copies what the write-ahead log holds into the index file, without waiting for anyone.
  ///
  /// Why: the writer checkpoints only every ~40 MB of log (`wal_autocheckpoint`), and SQLite's
  /// checkpoint at close happens only if the process closes its last connection before it
  /// exits, which a command cannot count on. A first crawl of 20,000 files left a 4 KB index
  /// file and 9 MB of log: correct and durable, but every reader then looks pages up in the
  /// log's index, and the file's size says nothing of the index's. A crawl calls this at its
  /// end. Passive first: pages a reader still needs stay in the log. Then, when the whole log
  /// is in the file, the log file is cut to nothing if no reader is in the way within a moment
  /// (left as it is otherwise): after a first crawl of 200,000 files it was a 41 MB file of
  /// pages already copied.
  public func checkpoint() async throws {
    guard !options.readOnly else { return }
    let patience = Int32(options.busyTimeout * 1000)
    do {
      try await pool.writeWithoutTransaction { db in
        let passive = try db.checkpoint(.passive)
        guard passive.checkpointedFrameCount == passive.walFrameCount else { return }
        sqlite3_busy_timeout(db.sqliteConnection, 50)
        defer { sqlite3_busy_timeout(db.sqliteConnection, patience) }
        _ = try? db.checkpoint(.truncate)
      }
    } catch {
      throw Self.translated(error, path: location.path)
    }
  }
}
