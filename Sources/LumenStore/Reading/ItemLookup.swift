import GRDB

/// Finds an item's row from its identifier: a non-file item by `uid`, a file item (identifier
/// = absolute path, `uid` NULL) by folder and name.
enum ItemLookup {
  static func rowID(_ db: Database, identifier: String) throws -> Int64? {
    if let id = try Int64.fetchOne(
      db.cachedStatement(sql: "SELECT id FROM item WHERE uid = ?"), arguments: [identifier])
    {
      return id
    }
    guard identifier.hasPrefix("/") else { return nil }
    return try fileRowID(db, path: identifier)
  }

  static func fileRowID(_ db: Database, path: String) throws -> Int64? {
    let split = StoredPath(path)
    guard let directory = split.directory else { return nil }
    return try Int64.fetchOne(
      db.cachedStatement(
        sql: """
          SELECT item.id FROM item WHERE item.dir_id = (SELECT id FROM directory WHERE path = ?)
          AND item.name = ? AND item.uid IS NULL
          """),
      arguments: [directory, split.name])
  }
}
