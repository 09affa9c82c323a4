import Foundation
import GRDB
import LumenModel

/// Rebuilds items from their rows: the inverse of `ItemWriter`'s layout.
struct ItemReader {
  let db: Database
  let layout: StorageLayout
  let registry: AttributeRegistry

  /// The columns that rebuild identity and the specially stored attributes, to be joined as
  /// `FROM item LEFT JOIN directory … LEFT JOIN content_type …`.
  static let identityColumns = """
    item.id, item.uid, item.dir_id, item.name, item.file_name, item.flags,
    (SELECT path FROM directory WHERE directory.id = item.dir_id) AS dir_path
    """

  /// Everything about one item.
  func storedItem(rowID: Int64) throws -> FullItem? {
    guard
      let row = try Row.fetchOne(
        db.cachedStatement(
          sql: """
            SELECT item.*, \(Self.identityColumns),
              domain.name AS domain_name, domain.expires AS domain_expires,
              content_type.identifier AS type_identifier, content_type.tree AS type_tree,
              extractor.name AS extractor_name, extractor.version AS extractor_version,
              item_text.text_content AS text_content
            FROM item
            LEFT JOIN domain ON domain.id = item.domain_id
            LEFT JOIN content_type ON content_type.id = item.type_id
            LEFT JOIN extractor ON extractor.id = item.extractor_id
            LEFT JOIN item_text ON item_text.item_id = item.id
            WHERE item.id = ?
            """), arguments: [rowID])
    else { return nil }
    var attributes = AttributeSet()
    for (column, keyName) in layout.columns.map({ ($1, $0) }) {
      guard let key = registry.key(named: keyName),
        let value = AttributeValue(stored: row[column], as: key.valueType)
      else { continue }
      attributes.set(value, for: key)
    }
    readIdentityAttributes(row, into: &attributes)
    if let identifier: String = row["type_identifier"] {
      attributes.set(.text(identifier), for: .contentType)
    }
    if let tree: String = row["type_tree"] {
      attributes.set(ContentTypeKey.splitTree(tree).map(AttributeValue.text), for: .contentTypeTree)
    }
    if let text: String = row["text_content"] { attributes.set(.text(text), for: .textContent) }
    try readValues(of: [rowID], keys: nil) { _, key, values in attributes.set(values, for: key) }

    var stamp: FileStamp? = nil
    if let inode: Int64 = row["st_ino"] {
      stamp = FileStamp(
        device: UInt64(bitPattern: row["st_dev"] ?? 0), inode: UInt64(bitPattern: inode),
        size: row["st_size"] ?? 0, modificationNanos: row["st_mtime_ns"] ?? 0,
        changeNanos: row["st_ctime_ns"] ?? 0)
    }
    let extractor: ExtractorStamp? = (row["extractor_name"] as String?).map {
      ExtractorStamp(name: $0, version: row["extractor_version"] ?? 0)
    }
    let ownExpiration: Double? = row["expires"]
    let expires: Double? = ownExpiration ?? row["domain_expires"]
    let flags = ItemFlags(rawValue: row["flags"] ?? 0)
    return FullItem(
      rowID: rowID, identifier: Self.identifier(row),
      domainIdentifier: row["domain_name"], attributes: attributes,
      expirationDate: expires.map(Date.init(timeIntervalSinceReferenceDate:)),
      ownExpirationDate: ownExpiration.map(Date.init(timeIntervalSinceReferenceDate:)),
      fileStamp: stamp, isDirectory: flags.contains(.isDirectory), extractor: extractor)
  }

  /// The identifier of a row selected with `identityColumns`.
  static func identifier(_ row: Row) -> String {
    if let uid: String = row["uid"] { return uid }
    return path(row) ?? ""
  }

  static func path(_ row: Row) -> String? {
    guard let name: String = row["name"] else { return nil }
    return StoredPath(directory: row["dir_path"], name: name).path
  }

  /// `path` and `fileName`, from a row selected with `identityColumns`.
  func readIdentityAttributes(_ row: Row, into attributes: inout AttributeSet) {
    if let path = Self.path(row) { attributes.set(.text(path), for: .path) }
    let flags = ItemFlags(rawValue: row["flags"] ?? 0)
    if flags.contains(.fileNameIsName), let name: String = row["name"] {
      attributes.set(.text(name), for: .fileName)
    } else if let fileName: String = row["file_name"] {
      attributes.set(.text(fileName), for: .fileName)
    }
  }

  /// Calls `body` with the values of `value`-stored attributes of some items, one call per
  /// (item, attribute), values in their stored order. `keys` limits which attributes are read.
  func readValues(
    of rowIDs: [Int64], keys: [AttributeKey]?,
    _ body: (Int64, AttributeKey, [AttributeValue]) -> Void
  ) throws {
    guard !rowIDs.isEmpty else { return }
    var sql = """
      SELECT value.item_id, attribute.name, value.value FROM value
      JOIN attribute ON attribute.id = value.attribute_id
      WHERE value.item_id IN (SELECT value FROM json_each(?))
      """
    var arguments: StatementArguments = ["[" + rowIDs.map(String.init).joined(separator: ",") + "]"]
    if let keys {
      sql += " AND attribute.name IN (SELECT value FROM json_each(?))"
      arguments += [JSONText.array(keys.map(\.name))]
    }
    sql += " ORDER BY value.item_id, value.attribute_id, value.ordinal"
    var current: (Int64, String)? = nil
    var collected: [AttributeValue] = []
    func flush() {
      guard let (item, name) = current, let key = registry.key(named: name) else { return }
      body(item, key, collected)
    }
    let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
    while let row = try cursor.next() {
      let item: Int64 = row[0]
      let name: String = row[1]
      if current?.0 != item || current?.1 != name {
        flush()
        current = (item, name)
        collected = []
      }
      if let key = registry.key(named: name),
        let value = AttributeValue(stored: row[2], as: key.valueType)
      {
        collected.append(value)
      }
    }
    flush()
  }
}
