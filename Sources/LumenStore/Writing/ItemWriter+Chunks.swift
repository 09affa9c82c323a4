import GRDB
import LumenModel

/// Writing a chunk of items at once. A crawl writes hundreds of new files per transaction; doing
/// the lookups for all of them in two statements and the inserts in a few multi-row statements
/// instead of five statements per item is what makes indexing fast.
extension ItemWriter {
  /// Indexes items in order. A chunk with updates is written item by item, since an update
  /// depends on what was written before it; otherwise an identifier given twice is simply
  /// written once, as its last occurrence (each full item replaces the previous one entirely).
  ///
  /// `drafts`, when given, holds the items already laid out in rows (`RowDraft`), one per item,
  /// nil for those the writer lays out itself.
  func write(
    _ items: [SearchableItem], files: [FileFacts?]? = nil, drafts: [RowDraft?]? = nil
  ) throws {
    var files = files ?? Array(repeating: nil, count: items.count)
    var drafts = drafts ?? Array(repeating: nil, count: items.count)
    guard !items.contains(where: \.isUpdate) else {
      for (item, file) in zip(items, files) { try write(item, file: file) }
      return
    }
    var items = items
    var last: [ExactText: Int] = [:]
    for (index, item) in items.enumerated() { last[ExactText(item.uniqueIdentifier)] = index }
    if last.count < items.count {
      let kept = items.indices.filter { last[ExactText(items[$0].uniqueIdentifier)] == $0 }
      items = kept.map { items[$0] }
      files = kept.map { files[$0] }
      drafts = kept.map { drafts[$0] }
    }
    try reserveRowIDs()
    let existing = try existingRows(items.map(\.uniqueIdentifier))
    var rows: [PreparedRow] = []
    rows.reserveCapacity(items.count)
    for (position, item) in items.enumerated() {
      let id: Int64
      if let old = existing[ExactText(item.uniqueIdentifier)] {
        try removeRow(old)
        id = old
      } else {
        id = try nextRowID()
      }
      if let draft = drafts[position] {
        rows.append(
          try prepareRow(
            id: id, identifier: item.uniqueIdentifier, domain: item.domainIdentifier,
            draft: draft, expiration: item.expirationDate, file: files[position]))
      } else {
        rows.append(
          try prepareRow(
            id: id, identifier: item.uniqueIdentifier, domain: item.domainIdentifier,
            attributes: completed(item.attributeSet), expiration: item.expirationDate,
            file: files[position]))
      }
    }
    try insert(rows)
  }

  /// The rows already stored for identifiers: by `uid`, and for absolute paths by folder and
  /// name, each in one statement over a JSON list.
  func existingRows(_ identifiers: [String]) throws -> [ExactText: Int64] {
    var found: [ExactText: Int64] = [:]
    for slice in identifiers.chunked(by: 2000) {
      let rows = try Row.fetchAll(
        db.cachedStatement(
          sql: "SELECT id, uid FROM item WHERE uid IN (SELECT value FROM json_each(?))"),
        arguments: [JSONText.array(Array(slice))])
      for row in rows { found[ExactText(row[1])] = row[0] }
    }
    let paths = identifiers.filter { $0.hasPrefix("/") }
    guard !paths.isEmpty else { return found }
    let splits = paths.map(StoredPath.init)
    let unknown = Set(splits.compactMap(\.directory).map(ExactText.init))
      .filter { directoryIDs[$0] == nil }.map(\.string)
    for slice in unknown.chunked(by: 2000) {
      let rows = try Row.fetchAll(
        db.cachedStatement(
          sql: "SELECT id, path FROM directory WHERE path IN (SELECT value FROM json_each(?))"),
        arguments: [JSONText.array(Array(slice))])
      for row in rows { directoryIDs[ExactText(row[1])] = row[0] }
    }
    var pairs: [String] = []
    var owners: [String] = []
    for (path, split) in zip(paths, splits) {
      guard let directory = split.directory, let id = directoryIDs[ExactText(directory)] else {
        continue
      }
      pairs.append("[\(id),\(JSONText.quoted(split.name))]")
      owners.append(path)
    }
    for start in stride(from: 0, to: pairs.count, by: 2000) {
      let end = min(pairs.count, start + 2000)
      let rows = try Row.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT item.id, pair.key FROM json_each(?) AS pair
            JOIN item ON item.dir_id = pair.value ->> 0 AND item.name = pair.value ->> 1
            WHERE item.uid IS NULL
            """),
        arguments: ["[" + pairs[start..<end].joined(separator: ",") + "]"])
      for row in rows {
        let index: Int = row[1]
        found[ExactText(owners[start + index])] = row[0]
      }
    }
    return found
  }
}
