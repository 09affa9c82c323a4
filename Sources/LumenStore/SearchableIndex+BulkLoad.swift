import Foundation
import GRDB

/// Bulk loading: filling an empty or nearly empty index without its densest secondary
/// attribute indexes and without keeping its full-text tables up to date; at the end the
/// indexes are created again in one sort each and the full-text tables rebuilt in one pass
/// (see `DeferredIndexes` and `DeferredFullText` for which, and why it pays).
///
/// Crash safety: the drop and its durable record share a transaction, and so do the creation
/// and the record's deletion. A loader killed in between leaves the record; the next writable
/// open of the index creates and rebuilds what it lists before anything else (unless the loader
/// is still alive: `BulkLoadLock`). Readers, including a read-only open, never create anything:
/// while the indexes are missing, queries scan and return the same results, more slowly.
extension SearchableIndex {
  /// Starts a bulk load: drops the deferrable indexes and, when `deferringFullText`, leaves
  /// the full-text tables to be rebuilt at the end; true when this instance is now bulk
  /// loading (already was, or started now). False, with nothing changed, when another writer
  /// is bulk loading the same index. Deferring full text pays when the writer is the loader's
  /// bottleneck; when it waits on something slower (extraction), keeping full text current
  /// overlaps that work with the wait instead of adding it at the end.
  public func beginBulkLoad(deferringFullText: Bool = true) async throws -> Bool {
    guard !options.readOnly else { throw SearchableIndexError.readOnly(path: location.path) }
    if bulkLoad.withLock({ $0 != nil }) { return true }
    guard let lock = try BulkLoadLock.take(databasePath: location.path) else { return false }
    // A record already there (left by a dead loader and not yet restored) is kept and added
    // to: the lock is ours, so `endBulkLoad` restores all of it.
    do {
      try await pool.write { db in
        _ = try DeferredIndexes.drop(db)
        if deferringFullText { try DeferredFullText.begin(db) }
      }
    } catch {
      throw Self.translated(error, path: location.path)
    }
    bulkLoad.withLock { $0 = lock }
    return true
  }

  /// Creates again every index the bulk load dropped and rebuilds the full-text tables (one
  /// transaction: each index one pass over the table) and ends the bulk load. Does nothing
  /// when none is under way here.
  ///
  /// Meanwhile another connection copies the load's pages from the log into the index file
  /// (a passive checkpoint, which never waits on the writer): the rebuild keeps one core busy
  /// and leaves the other idle, and the crawl's closing checkpoint would otherwise copy all of
  /// them after it, alone (50,000 files: 60 ms, against 140 ms of rebuilding).
  public func endBulkLoad() async throws {
    guard let lock = bulkLoad.withLock({ $0 }) else { return }
    defer { bulkLoad.withLock { $0 = nil }; withExtendedLifetime(lock) {} }
    let copying = LogCopier.start(databasePath: location.path)
    do {
      try await pool.write { db in try Self.restoreDeferred(db) }
    } catch {
      await copying.finished()
      throw Self.translated(error, path: location.path)
    }
    await copying.finished()
  }

  /// Whether this instance dropped indexes that it has not created again.
  public var isBulkLoading: Bool { bulkLoad.withLock { $0 != nil } }

  /// The names of the indexes a bulk load dropped and nobody has created again, as the file
  /// says (whoever dropped them).
  public func deferredIndexes() async throws -> [String] {
    try await read { db, _ in
      try DeferredIndexes.recorded(db).compactMap(Self.indexName)
    }
  }

  /// Whether the full-text tables are behind, as the file says (a bulk load under way here or
  /// in another process, or a dead loader's record).
  public func isFullTextDeferred() async throws -> Bool {
    try await read { db, _ in try DeferredFullText.isDeferred(db) }
  }

  /// On a writable open: creates the indexes and rebuilds the full text a dead loader left
  /// deferred, unless a live one holds the lock.
  static func restoreDeferredIndexes(_ pool: DatabasePool, path: String) throws {
    let deferred = try pool.read { db in
      guard try db.tableExists("meta") else { return false }
      return try !DeferredIndexes.recorded(db).isEmpty || DeferredFullText.isDeferred(db)
    }
    guard deferred else { return }
    guard let lock = try BulkLoadLock.take(databasePath: path) else { return }
    try withExtendedLifetime(lock) {
      try pool.write { db in try restoreDeferred(db) }
    }
  }

  /// Both records restored in the caller's transaction.
  private static func restoreDeferred(_ db: Database) throws {
    _ = try DeferredIndexes.restore(db)
    try DeferredFullText.restore(db)
  }

  /// `item_by_fileSize` from `CREATE INDEX "item_by_fileSize" ON …` (v1 wrote some names
  /// unquoted: `CREATE INDEX item_by_type ON …`).
  private static func indexName(_ statement: String) -> String? {
    guard let on = statement.range(of: " ON ") else { return nil }
    let name = statement[..<on.lowerBound].split(separator: " ").last ?? ""
    return name.isEmpty ? nil : name.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
  }
}
