import Foundation
import GRDB
import LumenModel

/// The write side of one transaction: replaces, merges and deletes items, keeping the side
/// tables and the full-text indexes consistent. It lives only inside one `DatabasePool.write`,
/// so its caches of row ids can never outlive a rollback.
final class ItemWriter {
  let db: Database
  let context: WriteContext
  /// The context's registry plus the custom keys first used in this transaction.
  private(set) var registry: AttributeRegistry
  /// Custom keys this transaction declared; the index adopts them once it commits.
  private(set) var declaredKeys: [AttributeKey] = []

  var domainRows: [ExactText: (id: Int64, expires: Double?)] = [:]
  var directoryIDs: [ExactText: Int64] = [:]
  var typeIDs: [ContentTypeKey: Int64] = [:]
  var attributeIDs: [String: Int64] = [:]
  var extractorIDs: [ExtractorStamp: Int64] = [:]
  /// Prepared INSERTs by set of columns.
  var insertStatements: [ColumnMask: Statement] = [:]
  /// Full-text bookkeeping, applied in bulk by `syncFullText()`: FTS5 pays a segment flush per
  /// statement, so one statement per chunk instead of one per item is most of the write speed.
  var fullTextRemovals: [(id: Int64, words: String?, terms: String?)] = []
  var fullTextInsertions: Set<Int64> = []

  init(db: Database, context: WriteContext) throws {
    self.db = db
    self.context = context
    self.registry = context.registry
    for row in try Row.fetchAll(db, sql: "SELECT id, name FROM attribute") {
      attributeIDs[row[1]] = row[0]
    }
  }

  // MARK: Items

  /// Indexes one item as Core Spotlight does: a full item replaces any item with its identifier;
  /// an update merges into the stored one (a removal deletes that attribute) and is dropped when
  /// there is none. Returns whether anything was written.
  @discardableResult
  func write(_ item: SearchableItem, file: FileFacts? = nil) throws -> Bool {
    let existing = try rowID(forIdentifier: item.uniqueIdentifier)
    var attributes = item.attributeSet
    var domain = item.domainIdentifier
    var fileFacts = file
    if item.isUpdate {
      guard let existing else { return false }
      guard let stored = try ItemReader(db: db, layout: context.layout, registry: registry)
        .storedItem(rowID: existing)
      else { return false }
      attributes = stored.attributes.merging(item.attributeSet)
      domain = item.domainIdentifier ?? stored.domainIdentifier
      if fileFacts == nil, let stamp = stored.fileStamp {
        fileFacts = FileFacts(
          stamp: stamp, isDirectory: stored.isDirectory, extractor: stored.extractor)
      }
    }
    if let existing { try removeRow(existing) }
    try insertRow(
      id: existing, identifier: item.uniqueIdentifier, domain: domain,
      attributes: completed(attributes), expiration: item.expirationDate, file: fileFacts)
    return true
  }

  /// `ItemLookup.rowID`, with this transaction's folder ids cached: a crawl writes a folder's
  /// files one after the other.
  func rowID(forIdentifier identifier: String) throws -> Int64? {
    if let id = try Int64.fetchOne(
      db.cachedStatement(sql: "SELECT id FROM item WHERE uid = ?"), arguments: [identifier])
    {
      return id
    }
    guard identifier.hasPrefix("/") else { return nil }
    let split = StoredPath(identifier)
    guard let directory = split.directory, let directoryID = try existingDirectoryID(directory)
    else { return nil }
    return try Int64.fetchOne(
      db.cachedStatement(
        sql: "SELECT id FROM item WHERE dir_id = ? AND name = ? AND uid IS NULL"),
      arguments: [directoryID, split.name])
  }

  /// Derives a missing `contentTypeTree` when the index was given a content-type registry.
  private func completed(_ attributes: AttributeSet) -> AttributeSet {
    guard let types = context.contentTypes, attributes[.contentTypeTree] == nil,
      let type = attributes.text(.contentType)
    else { return attributes }
    var completed = attributes
    completed.set(types.tree(of: type).map(AttributeValue.text), for: .contentTypeTree)
    return completed
  }

  // MARK: Rows

  /// Deletes one item row and what hangs off it, remembering its full-text entries.
  func removeRow(_ id: Int64) throws {
    try noteFullTextRemoval(of: id)
    try db.cachedStatement(sql: "DELETE FROM value WHERE item_id = ?").execute(arguments: [id])
    try db.cachedStatement(sql: "DELETE FROM item_text WHERE item_id = ?").execute(arguments: [id])
    try db.cachedStatement(sql: "DELETE FROM item WHERE id = ?").execute(arguments: [id])
  }

  func insertRow(
    id: Int64?, identifier: String, domain: String?, attributes: AttributeSet,
    expiration: Date?, file: FileFacts?
  ) throws {
    var row = ItemRow(columns: context.layout.itemColumns)
    row.set("id", id?.databaseValue)
    var flags: ItemFlags = []
    let path = attributes.text(.path)
    let isFileItem = path.map { $0.hasPrefix("/") && $0.isIdentical(to: identifier) } ?? false
    if !isFileItem { row.set("uid", identifier.databaseValue) }

    var domainExpiration: Double? = nil
    if let domain {
      let domainRow = try domainRow(domain)
      row.set("domain_id", domainRow.id.databaseValue)
      domainExpiration = domainRow.expires
    }
    if let expiration {
      row.set("expires", expiration.timeIntervalSinceReferenceDate.databaseValue)
    } else if domainExpiration == nil {
      let expires = context.now.timeIntervalSinceReferenceDate + context.defaultExpiration
      row.set("expires", expires.databaseValue)
    }

    var values: [(attributeID: Int64, values: [AttributeValue])] = []
    var textContent: String? = nil
    var typeIdentifier: String? = nil
    var typeTree: [String]? = nil
    var resolved: [(AttributeKey, [AttributeValue])] = []
    for (name, list) in attributes.values {
      guard let key = try resolve(name, in: attributes) else { continue }
      resolved.append((key, list))
      if list.contains(where: { $0.text.map { !$0.isNFC } ?? false }) {
        flags.insert(.hasUnnormalizedText)
      }
      switch context.layout.storage(for: key) {
      case .column(let column):
        row.set(column, list.first?.storedValue)
      case .path:
        guard let text = list.first?.text else { break }
        let split = StoredPath(text)
        if let directory = split.directory {
          row.set("dir_id", try directoryID(directory).databaseValue)
        }
        row.set("name", split.name.databaseValue)
      case .fileName:
        guard let text = list.first?.text else { break }
        if let path, StoredPath(path).name.isIdentical(to: text) {
          flags.insert(.fileNameIsName)
        } else {
          row.set("file_name", text.databaseValue)
        }
      case .contentType:
        typeIdentifier = list.first?.text
      case .contentTypeTree:
        typeTree = list.compactMap(\.text)
      case .textContent:
        textContent = list.first?.text
      case .values:
        values.append((try attributeID(key), list))
      }
    }
    if typeIdentifier != nil || typeTree != nil {
      row.set(
        "type_id",
        try contentTypeID(ContentTypeKey(identifier: typeIdentifier, tree: typeTree))
          .databaseValue)
    }
    if let file {
      row.set("st_dev", Int64(bitPattern: file.stamp.device).databaseValue)
      row.set("st_ino", Int64(bitPattern: file.stamp.inode).databaseValue)
      row.set("st_size", file.stamp.size.databaseValue)
      row.set("st_mtime_ns", file.stamp.modificationNanos.databaseValue)
      row.set("st_ctime_ns", file.stamp.changeNanos.databaseValue)
      if file.isDirectory { flags.insert(.isDirectory) }
      if let extractor = file.extractor {
        row.set("extractor_id", try extractorID(extractor).databaseValue)
      }
    }
    if flags.rawValue != 0 { row.set("flags", flags.rawValue.databaseValue) }

    let statement: Statement
    if let cached = insertStatements[row.mask] {
      statement = cached
    } else {
      statement = try db.makeStatement(sql: row.insertSQL)
      insertStatements[row.mask] = statement
    }
    statement.setUncheckedArguments(row.arguments)
    try statement.execute()
    let rowID = id ?? db.lastInsertedRowID

    for (attributeID, list) in values {
      for (ordinal, value) in list.enumerated() {
        guard let stored = value.storedValue else { continue }
        try db.cachedStatement(
          sql: "INSERT INTO value(item_id, attribute_id, ordinal, value) VALUES (?, ?, ?, ?)"
        ).execute(arguments: [rowID, attributeID, ordinal, stored])
      }
    }
    let documents = SearchDocuments(resolved)
    if textContent != nil || documents.words != nil || documents.terms != nil {
      try db.cachedStatement(
        sql: "INSERT INTO item_text(item_id, text_content, words, terms) VALUES (?, ?, ?, ?)"
      ).execute(arguments: [rowID, textContent, documents.words, documents.terms])
      if documents.words != nil || documents.terms != nil { fullTextInsertions.insert(rowID) }
    }
  }

  /// The registry row for an attribute of an item; a custom key not seen before is declared in
  /// the index (Core Spotlight declares custom keys by use).
  private func resolve(_ name: String, in attributes: AttributeSet) throws -> AttributeKey? {
    if let key = registry.key(named: name) {
      if key.isCustom, let given = attributes.keys[name],
        given.valueType != key.valueType || given.isMultiValued != key.isMultiValued
      {
        throw SearchableIndexError.attributeKey(.conflictingDeclaration(name))
      }
      return key
    }
    guard let given = attributes.keys[name], given.isCustom else { return nil }
    try declare([given])
    return given
  }

  /// Adds custom keys to the index (rows of `attribute`) and to this transaction's registry.
  func declare(_ keys: [AttributeKey]) throws {
    let fresh = keys.filter { registry.key(named: $0.name) == nil }
    do {
      registry = try registry.adding(keys)
    } catch {
      throw SearchableIndexError.attributeKey(error)
    }
    for key in fresh {
      try db.execute(
        sql: """
          INSERT INTO attribute(name, value_type, multi_valued, searchable,
            searchable_by_default, is_unique, is_custom) VALUES (?, ?, ?, ?, ?, ?, 1)
          ON CONFLICT(name) DO NOTHING
          """,
        arguments: [
          key.name, key.valueType.rawValue, key.isMultiValued, key.isSearchable,
          key.isSearchableByDefault, key.isUnique,
        ])
      attributeIDs[key.name] = try Int64.fetchOne(
        db, sql: "SELECT id FROM attribute WHERE name = ?", arguments: [key.name])
      declaredKeys.append(key)
    }
  }
}

/// The columns and values of one `item` row, turned into an INSERT naming only the columns
/// that have a value: a file item sets about fifteen of the hundred columns. The set of columns
/// is a bit mask, so items with the same attributes share one prepared statement.
struct ItemRow {
  let columns: ItemColumns
  private(set) var mask = ColumnMask()
  private var cells: [(slot: Int, value: DatabaseValue)] = []

  init(columns: ItemColumns) {
    self.columns = columns
    cells.reserveCapacity(24)
  }

  mutating func set(_ column: String, _ value: DatabaseValue?) {
    guard let value, !value.isNull, let slot = columns.slots[column] else { return }
    mask.insert(slot)
    cells.append((slot, value))
  }

  /// The values in column order, matching `insertSQL`.
  var arguments: StatementArguments {
    StatementArguments(cells.sorted { $0.slot < $1.slot }.map(\.value))
  }

  var insertSQL: String {
    let names = cells.map(\.slot).sorted().map { "\"\(columns.names[$0])\"" }
    let marks = String(repeating: "?,", count: names.count).dropLast()
    return "INSERT INTO item(\(names.joined(separator: ","))) VALUES (\(marks))"
  }
}

/// A set of `item` column slots.
struct ColumnMask: Hashable {
  private var words: (UInt64, UInt64, UInt64) = (0, 0, 0)

  mutating func insert(_ slot: Int) {
    switch slot >> 6 {
    case 0: words.0 |= 1 << UInt64(slot & 63)
    case 1: words.1 |= 1 << UInt64(slot & 63)
    default: words.2 |= 1 << UInt64(slot & 63)
    }
  }

  static func == (lhs: ColumnMask, rhs: ColumnMask) -> Bool { lhs.words == rhs.words }

  func hash(into hasher: inout Hasher) {
    hasher.combine(words.0)
    hasher.combine(words.1)
    hasher.combine(words.2)
  }
}
