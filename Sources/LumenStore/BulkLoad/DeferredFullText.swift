import GRDB

/// The full-text tables left behind during a bulk load, and the durable record of that.
///
/// Why: a first crawl of 200,000 files spent a fifth of its time keeping `item_fts` and
/// `item_trigram` up to date 500 items at a time (FTS5 writes a segment per transaction and
/// merges them again and again); filling them from `item_text` in one pass at the end costs a
/// quarter of that and leaves them smaller.
///
/// While the record is there, writers leave both tables alone (no insertions, no deletions, so
/// whatever they hold may be stale) and queries do not read them: `QueryCompiler` then checks
/// every row exactly, which its index-driven plans do for each candidate anyway, so results are
/// the same, only slower and unranked. The record is written in the transaction that starts
/// the deferral and deleted in the one that rebuilds both tables from `item_text`: whatever
/// moment a process dies at, the next writable open knows to rebuild.
enum DeferredFullText {
  static let metaKey = "full_text_deferred"

  /// Records the deferral (once; a record already there stays).
  static func begin(_ db: Database) throws {
    try db.execute(
      sql: "INSERT OR IGNORE INTO meta(key, value) VALUES (?, '1')", arguments: [metaKey])
  }

  /// Whether the full-text tables are behind `item_text`, as the file says.
  static func isDeferred(_ db: Database) throws -> Bool {
    try Bool.fetchOne(
      db.cachedStatement(sql: "SELECT 1 FROM meta WHERE key = ?"), arguments: [metaKey]) ?? false
  }

  /// Rebuilds both tables from `item_text` (FTS5's `rebuild`: everything they held is dropped
  /// first, so stale entries go too) and deletes the record, in the caller's transaction.
  /// Returns whether there was anything to do.
  @discardableResult
  static func restore(_ db: Database) throws -> Bool {
    guard try isDeferred(db) else { return false }
    try db.execute(
      sql: """
        INSERT INTO item_fts(item_fts) VALUES ('rebuild');
        INSERT INTO item_trigram(item_trigram) VALUES ('rebuild');
        """)
    try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [metaKey])
    return true
  }
}
