import Foundation
import GRDB

/// The secondary indexes a bulk load drops and creates again, and the durable record of that.
///
/// Why: measured by bench/query, a 500-item transaction with every index costs 1.9 s of CPU per
/// 100,000 items against 0.3 s for the rows alone, because each index with random keys (dates,
/// sizes, titles, pixel sizes…) dirties about one page per item and every commit writes each
/// dirtied page to the WAL. Filling an empty index without them and creating them at the end
/// costs one sort per index instead.
///
/// Which: the indexes with random keys that every file item has an entry in (its size, dates
/// and display name). Creating an index again costs a full pass over `item` whether it gets
/// one entry or 130,000, so the sparse ones (title, pixel sizes, durations, dates of events…)
/// are kept and filled as items come: at 200,000 files, re-creating all 18 took 0.8 s at the
/// end of the crawl, most of it passes for indexes that stayed empty. `item_by_type` stays
/// too: its keys are a few dozen types, each followed by ever larger row ids, so it grows at
/// a few places like an append (re-creating it cost 50 ms at 200,000 files, keeping it no
/// measurable time). The indexes the writer itself reads (`item_by_uid` for uniqueness,
/// `item_by_path` for folder listings, `item_by_inode` for move detection, `item_by_domain`
/// and `item_by_expiration` for deletions and expiry) always stay. A query never names an
/// index (no `INDEXED BY`), so without the dropped ones SQLite scans and the results are the
/// same.
///
/// The record: `meta.deferred_indexes` holds the exact `CREATE INDEX` statements (as
/// `sqlite_master` had them, so a later migration's shape is kept), written in the transaction
/// that drops them and deleted in the one that creates them again: whatever moment a process
/// dies at, the record says exactly what is missing.
enum DeferredIndexes {
  static let metaKey = "deferred_indexes"

  /// The names of the indexes a bulk load may drop (those present are dropped).
  static let deferrable: Set<String> = [
    "item_by_fileSize", "item_by_contentCreationDate", "item_by_contentModificationDate",
    "item_by_displayName",
  ]

  /// Drops the deferrable indexes present and records their statements; returns how many.
  /// Adds to a record already there (never loses a statement).
  static func drop(_ db: Database) throws -> Int {
    let present = try Row.fetchAll(
      db,
      sql: """
        SELECT name, sql FROM sqlite_master
        WHERE type = 'index' AND tbl_name = 'item' AND sql IS NOT NULL ORDER BY name
        """
    ).map { (name: $0[0] as String, sql: $0[1] as String) }
      .filter { deferrable.contains($0.name) }
    guard !present.isEmpty else { return 0 }
    let statements = try recorded(db) + present.map(\.sql)
    for index in present {
      try db.execute(sql: "DROP INDEX \"\(index.name)\"")
    }
    try db.execute(
      sql: "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
      arguments: [metaKey, statements.joined(separator: ";\n")])
    return present.count
  }

  /// The statements of the indexes a bulk load dropped and has not created again.
  static func recorded(_ db: Database) throws -> [String] {
    guard
      let text = try String.fetchOne(
        db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [metaKey])
    else { return [] }
    return text.components(separatedBy: ";\n").filter { !$0.isEmpty }
  }

  /// Creates every recorded index (each one sort over the table) and deletes the record, in
  /// the caller's transaction; returns how many were created.
  static func restore(_ db: Database) throws -> Int {
    let statements = try recorded(db)
    for statement in statements {
      // An index that exists already (a record written beside a later CREATE) stays as is.
      let created = statement.replacingOccurrences(
        of: "CREATE INDEX ", with: "CREATE INDEX IF NOT EXISTS ",
        options: .anchored)
      try db.execute(sql: created)
    }
    try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [metaKey])
    return statements.count
  }
}
