import Foundation
import GRDB
import LumenModel

/// An item turned into rows, ready to insert: the `item` row, its `value` rows and its
/// `item_text` row.
struct PreparedRow {
  let id: Int64
  var row: ItemRow
  var values: [(attributeID: Int64, ordinal: Int, value: DatabaseValue)] = []
  var textContent: String?
  var documents: SearchDocuments
}

/// The shape of a multi-row INSERT: which columns, how many rows.
struct RowShape: Hashable {
  let table: Int
  let columns: ColumnMask
  let rows: Int
}

extension ItemWriter {
  /// A row id above every existing one, for new items: ids are assigned here rather than by
  /// SQLite so that a chunk's rows can go in a few multi-row INSERTs.
  func nextRowID() throws -> Int64 {
    try reserveRowIDs()
    defer { nextFreeRowID! += 1 }
    return nextFreeRowID!
  }

  /// Reads the first free row id. Done before a chunk deletes rows it will reuse, so that a
  /// new item can never be given the id of a replaced one.
  func reserveRowIDs() throws {
    if nextFreeRowID == nil {
      nextFreeRowID = (try Int64.fetchOne(db, sql: "SELECT max(id) FROM item") ?? 0) + 1
    }
  }

  /// Lays an item out in rows (see `StoreMigrations` for the layout).
  func prepareRow(
    id: Int64, identifier: String, domain: String?, attributes: AttributeSet,
    expiration: Date?, file: FileFacts?
  ) throws -> PreparedRow {
    let draft = try RowDraft(
      identifier: identifier, attributes: attributes, layout: context.layout, cache: folds
    ) { name in try resolve(name, in: attributes) }
    return try prepareRow(
      id: id, identifier: identifier, domain: domain, draft: draft, expiration: expiration,
      file: file)
  }

  /// Completes a draft with what needs the database: ids of the row, its folder, domain,
  /// content type, extractor and attributes, and the expiration.
  func prepareRow(
    id: Int64, identifier: String, domain: String?, draft: RowDraft, expiration: Date?,
    file: FileFacts?
  ) throws -> PreparedRow {
    var row = ItemRow(columns: context.layout.itemColumns)
    row.set(ItemColumns.id, id.databaseValue)
    var flags = draft.flags
    if !draft.isFileItem { row.set(ItemColumns.uid, identifier.databaseValue) }

    var domainExpiration: Double? = nil
    if let domain {
      let domainRow = try domainRow(domain)
      row.set(ItemColumns.domainID, domainRow.id.databaseValue)
      domainExpiration = domainRow.expires
    }
    if let expiration {
      row.set(ItemColumns.expires, expiration.timeIntervalSinceReferenceDate.databaseValue)
    } else if domainExpiration == nil {
      let expires = context.now.timeIntervalSinceReferenceDate + context.defaultExpiration
      row.set(ItemColumns.expires, expires.databaseValue)
    }
    for cell in draft.cells { row.set(cell.slot, cell.value) }
    if let path = draft.path {
      if let directory = path.directory {
        row.set(ItemColumns.dirID, try directoryID(directory).databaseValue)
      }
      row.set(ItemColumns.name, path.name.databaseValue)
    }
    if let fileName = draft.fileName { row.set(ItemColumns.fileName, fileName.databaseValue) }
    var values: [(attributeID: Int64, ordinal: Int, value: DatabaseValue)] = []
    values.reserveCapacity(draft.values.count)
    for value in draft.values {
      values.append((try attributeID(value.key), value.ordinal, value.value))
    }
    if draft.typeIdentifier != nil || draft.typeTree != nil {
      row.set(
        ItemColumns.typeID,
        try contentTypeID(identifier: draft.typeIdentifier, tree: draft.typeTree).databaseValue)
    }
    if let file {
      row.set(ItemColumns.device, Int64(bitPattern: file.stamp.device).databaseValue)
      row.set(ItemColumns.inode, Int64(bitPattern: file.stamp.inode).databaseValue)
      row.set(ItemColumns.size, file.stamp.size.databaseValue)
      row.set(ItemColumns.modification, file.stamp.modificationNanos.databaseValue)
      row.set(ItemColumns.change, file.stamp.changeNanos.databaseValue)
      if file.isDirectory { flags.insert(.isDirectory) }
      if let extractor = file.extractor {
        row.set(ItemColumns.extractorID, try extractorID(extractor).databaseValue)
      }
    }
    if flags.rawValue != 0 { row.set(ItemColumns.flags, flags.rawValue.databaseValue) }
    return PreparedRow(
      id: id, row: row, values: values, textContent: draft.textContent,
      documents: draft.documents)
  }

  /// Inserts prepared rows with as few statements as their shapes allow: rows with the same
  /// columns share a multi-row INSERT, and so do all `value` and `item_text` rows.
  ///
  /// `OR ROLLBACK`: a failed row fails the whole write transaction anyway (the caller rethrows
  /// and nothing of the chunk may stay), so SQLite need not keep a statement journal of every
  /// index page each statement touches in order to undo that statement alone (bench/query:
  /// +8% items per CPU-second at 500-item transactions).
  func insert(_ rows: [PreparedRow]) throws {
    var groups: [ColumnMask: [Int]] = [:]
    var order: [ColumnMask] = []
    for (index, prepared) in rows.enumerated() {
      if groups[prepared.row.mask] == nil { order.append(prepared.row.mask) }
      groups[prepared.row.mask, default: []].append(index)
    }
    var arguments: [DatabaseValue] = []
    for mask in order {
      let members = groups[mask]!
      var start = 0
      for size in Self.sliceSizes(members.count) {
        arguments.removeAll(keepingCapacity: true)
        for index in members[start..<start + size] { rows[index].row.appendValues(to: &arguments) }
        let shape = RowShape(table: 0, columns: mask, rows: size)
        try run(shape, arguments) { rows[members[0]].row.insertSQL(rows: size) }
        start += size
      }
    }

    var values: [DatabaseValue] = []
    var texts: [DatabaseValue] = []
    texts.reserveCapacity(rows.count * 4)
    for prepared in rows {
      for value in prepared.values {
        values.append(prepared.id.databaseValue)
        values.append(value.attributeID.databaseValue)
        values.append(value.ordinal.databaseValue)
        values.append(value.value)
      }
      let documents = prepared.documents
      if prepared.textContent != nil || documents.words != nil || documents.terms != nil {
        texts.append(prepared.id.databaseValue)
        texts.append(prepared.textContent.databaseValue)
        texts.append(documents.words.databaseValue)
        texts.append(documents.terms.databaseValue)
        if documents.words != nil || documents.terms != nil {
          fullTextInsertions.insert(prepared.id)
        }
      }
    }
    try insertTuples(values, table: 1, width: 4) {
      "INSERT OR ROLLBACK INTO value(item_id, attribute_id, ordinal, value) VALUES " + $0
    }
    try insertTuples(texts, table: 2, width: 4) {
      "INSERT OR ROLLBACK INTO item_text(item_id, text_content, words, terms) VALUES " + $0
    }
  }

  /// Rows per multi-row INSERT: a few fixed sizes, so that the statements (costly to prepare
  /// with hundreds of parameters) are prepared once per connection and reused by every chunk.
  /// 32 rows of at most ~100 columns stays far below SQLite's 32766 parameters.
  static func sliceSizes(_ count: Int) -> [Int] {
    var sizes: [Int] = []
    var left = count
    for size in [32, 8, 1] {
      while left >= size {
        sizes.append(size)
        left -= size
      }
    }
    return sizes
  }

  private func insertTuples(
    _ flat: [DatabaseValue], table: Int, width: Int, sql: (String) -> String
  ) throws {
    guard !flat.isEmpty else { return }
    let tuple = "(" + String(repeating: "?,", count: width).dropLast() + ")"
    var start = 0
    for size in Self.sliceSizes(flat.count / width) {
      let end = start + size * width
      try run(RowShape(table: table, columns: ColumnMask(), rows: size), flat[start..<end]) {
        sql(Array(repeating: tuple, count: size).joined(separator: ","))
      }
      start = end
    }
  }

  private func run(
    _ shape: RowShape, _ arguments: some Collection<DatabaseValue>, sql: () -> String
  ) throws {
    let statement: Statement
    if let cached = insertStatements[shape] {
      statement = cached
    } else {
      statement = try db.cachedStatement(sql: sql())
      insertStatements[shape] = statement
    }
    statement.bindDirectly(arguments)
    try statement.execute()
  }
}
