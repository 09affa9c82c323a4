import GRDB

/// Keeps `item_fts` and `item_trigram` equal to `item_text`. Both are external-content FTS5
/// tables: deleting an entry needs the text it was indexed with, which `item_text` still holds
/// when a row is replaced or deleted (kept rather than recomputed, so a future change of the
/// folding rules can never leave stale tokens behind). During a bulk load both are left alone
/// and rebuilt at its end (`DeferredFullText`).
extension ItemWriter {
  /// Remembers the full-text entries of a row about to be deleted or replaced.
  func noteFullTextRemoval(of id: Int64) throws {
    guard !fullTextDeferred else { return }
    if fullTextInsertions.remove(id) != nil { return }  // written in this chunk: not indexed yet
    guard
      let row = try Row.fetchOne(
        db.cachedStatement(sql: "SELECT words, terms FROM item_text WHERE item_id = ?"),
        arguments: [id])
    else { return }
    let words: String? = row[0]
    let terms: String? = row[1]
    if words != nil || terms != nil { fullTextRemovals.append((id, words, terms)) }
  }

  /// Applies the remembered removals and insertions, a few statements per chunk.
  func syncFullText() throws {
    guard !fullTextDeferred else {
      fullTextRemovals = []
      fullTextInsertions = []
      return
    }
    let removals = fullTextRemovals
    fullTextRemovals = []
    for slice in removals.chunked(by: 300) {
      let words = slice.filter { $0.words != nil }
      if !words.isEmpty {
        try db.execute(
          sql: "INSERT INTO item_fts(item_fts, rowid, words) VALUES "
            + Array(repeating: "('delete', ?, ?)", count: words.count).joined(separator: ","),
          arguments: StatementArguments(
            words.flatMap { [$0.id.databaseValue, $0.words.databaseValue] }))
      }
      let terms = slice.filter { $0.terms != nil }
      if !terms.isEmpty {
        try db.execute(
          sql: "INSERT INTO item_trigram(item_trigram, rowid, terms) VALUES "
            + Array(repeating: "('delete', ?, ?)", count: terms.count).joined(separator: ","),
          arguments: StatementArguments(
            terms.flatMap { [$0.id.databaseValue, $0.terms.databaseValue] }))
      }
    }
    let insertions = fullTextInsertions.sorted()
    fullTextInsertions = []
    for slice in insertions.chunked(by: 5000) {
      let ids = "[" + slice.map(String.init).joined(separator: ",") + "]"
      try db.execute(
        sql: """
          INSERT INTO item_fts(rowid, words) SELECT item_id, words FROM item_text
          WHERE item_id IN (SELECT value FROM json_each(?)) AND words IS NOT NULL
          """, arguments: [ids])
      try db.execute(
        sql: """
          INSERT INTO item_trigram(rowid, terms) SELECT item_id, terms FROM item_text
          WHERE item_id IN (SELECT value FROM json_each(?)) AND terms IS NOT NULL
          """, arguments: [ids])
    }
  }
}

extension Array {
  func chunked(by size: Int) -> [ArraySlice<Element>] {
    stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
  }
}
