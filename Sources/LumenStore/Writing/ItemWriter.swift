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
  var recentTypes: [ExactText?: [(tree: [String]?, id: Int64)]] = [:]
  var attributeIDs: [String: Int64] = [:]
  var extractorIDs: [ExtractorStamp: Int64] = [:]
  /// Prepared multi-row INSERTs by (set of columns, number of rows).
  var insertStatements: [RowShape: Statement] = [:]
  /// Whether `failed_extraction` has rows (nil until read; see `recordExtraction`).
  var failureRecordsExist: Bool?
  /// The next free row id, once read.
  var nextFreeRowID: Int64?
  let folds = SearchDocuments.FoldCache()
  /// Full-text bookkeeping, applied in bulk by `syncFullText()`: FTS5 pays a segment flush per
  /// statement, so one statement per chunk instead of one per item is most of the write speed.
  var fullTextRemovals: [(id: Int64, words: String?, terms: String?)] = []
  var fullTextInsertions: Set<Int64> = []
  /// A bulk load has deferred full text (`DeferredFullText`): the tables are left alone until
  /// they are rebuilt. Read per transaction, since the loader may be another process.
  let fullTextDeferred: Bool

  init(db: Database, context: WriteContext) throws {
    self.db = db
    self.context = context
    self.registry = context.registry
    self.fullTextDeferred = try DeferredFullText.isDeferred(db)
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
      guard
        let stored = try ItemReader(db: db, layout: context.layout, registry: registry)
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
  func completed(_ attributes: AttributeSet) -> AttributeSet {
    SearchableIndex.completed(attributes, contentTypes: context.contentTypes)
  }

  // MARK: Rows

  /// Deletes one item row and what hangs off it, remembering its full-text entries.
  func removeRow(_ id: Int64) throws {
    try noteFullTextRemoval(of: id)
    try db.cachedStatement(sql: "DELETE FROM value WHERE item_id = ?").execute(arguments: [id])
    try db.cachedStatement(sql: "DELETE FROM item_text WHERE item_id = ?").execute(arguments: [id])
    try db.cachedStatement(sql: "DELETE FROM item WHERE id = ?").execute(arguments: [id])
  }

  /// Writes one item row (replacing nothing: the caller removed any old row first).
  func insertRow(
    id: Int64?, identifier: String, domain: String?, attributes: AttributeSet,
    expiration: Date?, file: FileFacts?
  ) throws {
    let rowID = try id ?? nextRowID()
    let row = try prepareRow(
      id: rowID, identifier: identifier, domain: domain, attributes: attributes,
      expiration: expiration, file: file)
    try insert([row])
  }

  /// The registry row for an attribute of an item; a custom key not seen before is declared in
  /// the index (Core Spotlight declares custom keys by use).
  func resolve(_ name: String, in attributes: AttributeSet) throws -> AttributeKey? {
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

extension SearchableIndex {
  /// `attributes` with `contentTypeTree` derived from `contentType` when missing and the index
  /// was given a content-type registry.
  static func completed(_ attributes: AttributeSet, contentTypes: ContentTypeRegistry?)
    -> AttributeSet
  {
    guard let types = contentTypes, attributes[.contentTypeTree] == nil,
      let type = attributes.text(.contentType)
    else { return attributes }
    var completed = attributes
    completed.set(types.tree(of: type).map(AttributeValue.text), for: .contentTypeTree)
    return completed
  }
}
