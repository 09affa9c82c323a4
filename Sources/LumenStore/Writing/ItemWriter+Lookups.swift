import GRDB
import LumenModel

/// A content type and its tree, as one deduplicated `content_type` row.
struct ContentTypeKey: Hashable {
  let identifier: ExactText?
  let tree: ExactText?

  init(identifier: String?, tree: [String]?) {
    self.identifier = identifier.map(ExactText.init)
    self.tree = tree.map { ExactText(ContentTypeKey.joinTree($0)) }
  }

  /// Tree members joined by U+001F, which no type identifier contains.
  static func joinTree(_ tree: [String]) -> String { tree.joined(separator: "\u{1F}") }
  static func splitTree(_ joined: String) -> [String] {
    joined.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
  }
}

/// Ids of the small tables items point into, created on first use and cached for the
/// transaction.
extension ItemWriter {
  func domainRow(_ name: String) throws -> (id: Int64, expires: Double?) {
    let key = ExactText(name)
    if let cached = domainRows[key] { return cached }
    let found: (id: Int64, expires: Double?)
    if let row = try Row.fetchOne(
      db.cachedStatement(sql: "SELECT id, expires FROM domain WHERE name = ?"), arguments: [name])
    {
      found = (row[0], row[1])
    } else {
      try db.cachedStatement(sql: "INSERT INTO domain(name) VALUES (?)").execute(arguments: [name])
      found = (db.lastInsertedRowID, nil)
    }
    domainRows[key] = found
    return found
  }

  func existingDirectoryID(_ path: String) throws -> Int64? {
    let key = ExactText(path)
    if let cached = directoryIDs[key] { return cached }
    let id = try Int64.fetchOne(
      db.cachedStatement(sql: "SELECT id FROM directory WHERE path = ?"), arguments: [path])
    if let id { directoryIDs[key] = id }
    return id
  }

  func directoryID(_ path: String) throws -> Int64 {
    if let id = try existingDirectoryID(path) { return id }
    try db.cachedStatement(sql: "INSERT INTO directory(path) VALUES (?)").execute(arguments: [path])
    let id = db.lastInsertedRowID
    directoryIDs[ExactText(path)] = id
    return id
  }

  /// The type id, looked up first among the types this transaction used: almost every item of
  /// a type has the same tree, so comparing arrays beats joining and hashing them.
  func contentTypeID(identifier: String?, tree: [String]?) throws -> Int64 {
    let recent = recentTypes[identifier.map(ExactText.init)] ?? []
    for entry in recent where entry.tree.map({ $0.count }) == tree.map({ $0.count }) {
      if entry.tree == nil && tree == nil { return entry.id }
      if let known = entry.tree, let tree,
        zip(known, tree).allSatisfy({ $0.isIdentical(to: $1) })
      {
        return entry.id
      }
    }
    let id = try contentTypeID(ContentTypeKey(identifier: identifier, tree: tree))
    recentTypes[identifier.map(ExactText.init), default: []].append((tree, id))
    return id
  }

  func contentTypeID(_ key: ContentTypeKey) throws -> Int64 {
    if let cached = typeIDs[key] { return cached }
    let identifier = key.identifier?.string
    let tree = key.tree?.string
    if let id = try Int64.fetchOne(
      db.cachedStatement(
        sql: "SELECT id FROM content_type WHERE identifier IS ? AND tree IS ?"),
      arguments: [identifier, tree])
    {
      typeIDs[key] = id
      return id
    }
    try db.cachedStatement(sql: "INSERT INTO content_type(identifier, tree) VALUES (?, ?)")
      .execute(arguments: [identifier, tree])
    let id = db.lastInsertedRowID
    if let tree {
      for (ordinal, ancestor) in ContentTypeKey.splitTree(tree).enumerated() {
        try db.cachedStatement(
          sql: "INSERT INTO content_type_ancestor(type_id, ordinal, ancestor) VALUES (?, ?, ?)"
        ).execute(arguments: [id, ordinal, ancestor])
      }
    }
    typeIDs[key] = id
    return id
  }

  /// The `attribute` row of a key stored in `value`; built-in rows are added on first use.
  func attributeID(_ key: AttributeKey) throws -> Int64 {
    if let id = attributeIDs[key.name] { return id }
    try db.execute(
      sql: """
        INSERT INTO attribute(name, value_type, multi_valued, searchable,
          searchable_by_default, is_unique, is_custom) VALUES (?, ?, ?, ?, ?, ?, ?)
        """,
      arguments: [
        key.name, key.valueType.rawValue, key.isMultiValued, key.isSearchable,
        key.isSearchableByDefault, key.isUnique, key.isCustom,
      ])
    let id = db.lastInsertedRowID
    attributeIDs[key.name] = id
    return id
  }

  func extractorID(_ stamp: ExtractorStamp) throws -> Int64 {
    if let cached = extractorIDs[stamp] { return cached }
    try db.execute(
      sql: "INSERT INTO extractor(name, version) VALUES (?, ?) ON CONFLICT DO NOTHING",
      arguments: [stamp.name, stamp.version])
    let id = try Int64.fetchOne(
      db, sql: "SELECT id FROM extractor WHERE name = ? AND version = ?",
      arguments: [stamp.name, stamp.version])!
    extractorIDs[stamp] = id
    return id
  }
}
