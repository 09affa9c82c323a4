import Foundation
import GRDB

/// Bulk loading: filling an empty or nearly empty index without its secondary attribute
/// indexes, which are created again in one sort each at the end (see `DeferredIndexes` for
/// which, and why it pays).
///
/// Crash safety: the drop and its durable record share a transaction, and so do the creation
/// and the record's deletion. A loader killed in between leaves the record; the next writable
/// open of the index creates what it lists before anything else (unless the loader is still
/// alive: `BulkLoadLock`). Readers, including a read-only open, never create anything: while
/// the indexes are missing, queries scan and return the same results, more slowly.
extension SearchableIndex {
  /// Drops the deferrable indexes for a bulk load; true when this instance is now bulk loading
  /// (already was, or dropped them now). False, with nothing changed, when another writer is
  /// bulk loading the same index or the index has none of these indexes.
  public func beginBulkLoad() async throws -> Bool {
    guard !options.readOnly else { throw SearchableIndexError.readOnly(path: location.path) }
    if bulkLoad.withLock({ $0 != nil }) { return true }
    guard let lock = try BulkLoadLock.take(databasePath: location.path) else { return false }
    let dropped: Int
    do {
      dropped = try await pool.write { db in try DeferredIndexes.drop(db) }
    } catch {
      throw Self.translated(error, path: location.path)
    }
    // A record already there (left by a dead loader and not yet restored) counts too: the
    // lock is ours, so `endBulkLoad` restores it.
    let recorded = try await pool.read { db in try DeferredIndexes.recorded(db) }
    guard dropped > 0 || !recorded.isEmpty else { return false }
    bulkLoad.withLock { $0 = lock }
    return true
  }

  /// Creates again every index the bulk load dropped (one transaction: each index one pass
  /// over the table) and ends the bulk load. Does nothing when none is under way here.
  public func endBulkLoad() async throws {
    guard let lock = bulkLoad.withLock({ $0 }) else { return }
    defer { bulkLoad.withLock { $0 = nil }; withExtendedLifetime(lock) {} }
    do {
      _ = try await pool.write { db in try DeferredIndexes.restore(db) }
    } catch {
      throw Self.translated(error, path: location.path)
    }
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

  /// On a writable open: creates the indexes a dead loader left deferred, unless a live one
  /// holds the lock.
  static func restoreDeferredIndexes(_ pool: DatabasePool, path: String) throws {
    let recorded = try pool.read { db in
      try db.tableExists("meta") ? try DeferredIndexes.recorded(db) : []
    }
    guard !recorded.isEmpty else { return }
    guard let lock = try BulkLoadLock.take(databasePath: path) else { return }
    try withExtendedLifetime(lock) {
      _ = try pool.write { db in try DeferredIndexes.restore(db) }
    }
  }

  /// `item_by_fileSize` from `CREATE INDEX "item_by_fileSize" ON …` (v1 wrote some names
  /// unquoted: `CREATE INDEX item_by_type ON …`).
  private static func indexName(_ statement: String) -> String? {
    guard let on = statement.range(of: " ON ") else { return nil }
    let name = statement[..<on.lowerBound].split(separator: " ").last ?? ""
    return name.isEmpty ? nil : name.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
  }
}
