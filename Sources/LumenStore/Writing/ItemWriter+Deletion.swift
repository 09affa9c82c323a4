import GRDB

/// Deleting items: one by identifier, or many by a condition on `item` in a few statements.
extension ItemWriter {
  /// Deletes items by identifier; unknown identifiers are ignored, as in Core Spotlight.
  func delete(identifiers: [String]) throws {
    for identifier in identifiers {
      if let id = try rowID(forIdentifier: identifier) { try removeRow(id) }
    }
  }

  /// Deletes the items of domains and of their subdomains: `mail` takes `mail` and
  /// `mail.inbox`, not `mailbox`. Subdomains are the names that start with `mail.`, found as the
  /// range ["mail.", "mail/"), '/' being the character after '.'.
  func delete(domains: [String]) throws {
    for domain in domains {
      try deleteItems(
        where: """
          domain_id IN (SELECT id FROM domain WHERE name = ?1
            OR (name >= ?1 || '.' AND name < ?1 || '/'))
          """, arguments: [domain])
    }
  }

  func deleteAll() throws {
    fullTextRemovals = []
    fullTextInsertions = []
    try db.execute(
      sql: """
        INSERT INTO item_fts(item_fts) VALUES ('delete-all');
        INSERT INTO item_trigram(item_trigram) VALUES ('delete-all');
        DELETE FROM item_text;
        DELETE FROM value;
        DELETE FROM item;
        DELETE FROM directory;
        DELETE FROM failed_extraction;
        """)
  }

  /// Deletes every item matching `condition` (SQL over `item`, with bound arguments only).
  func deleteItems(where condition: String, arguments: StatementArguments) throws {
    try syncFullText()
    let doomed = "SELECT id FROM item WHERE \(condition)"
    if !fullTextDeferred { try deleteFullText(of: doomed, arguments: arguments) }
    try db.execute(
      sql: "DELETE FROM item_text WHERE item_id IN (\(doomed))", arguments: arguments)
    try db.execute(sql: "DELETE FROM value WHERE item_id IN (\(doomed))", arguments: arguments)
    try db.execute(sql: "DELETE FROM item WHERE \(condition)", arguments: arguments)
  }

  /// The full-text entries of the rows `doomed` selects, read from `item_text` before it goes.
  private func deleteFullText(of doomed: String, arguments: StatementArguments) throws {
    try db.execute(
      sql: """
        INSERT INTO item_fts(item_fts, rowid, words)
          SELECT 'delete', item_id, words FROM item_text
          WHERE words IS NOT NULL AND item_id IN (\(doomed))
        """, arguments: arguments)
    try db.execute(
      sql: """
        INSERT INTO item_trigram(item_trigram, rowid, terms)
          SELECT 'delete', item_id, terms FROM item_text
          WHERE terms IS NOT NULL AND item_id IN (\(doomed))
        """, arguments: arguments)
  }

  /// Forgets folders no item is in any more.
  func deleteUnusedDirectories() throws {
    try db.execute(
      sql: """
        DELETE FROM directory WHERE NOT EXISTS (SELECT 1 FROM item WHERE item.dir_id = directory.id)
        """)
    directoryIDs = [:]
  }
}
