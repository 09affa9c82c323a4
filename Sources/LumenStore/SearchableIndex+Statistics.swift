import Foundation
import GRDB
import LumenModel

/// What `lumen status` shows about an index.
extension SearchableIndex {
  public func statistics() async throws -> IndexStatistics {
    let now = options.clock().timeIntervalSinceReferenceDate
    let path = location.path
    let customKeys = registry.keys.filter(\.isCustom).count
    return try await read { db, _ in
      let itemCount = try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0
      var byDomain: [String: Int] = [:]
      for row in try Row.fetchAll(
        db,
        sql: """
          SELECT domain.name, count(*) FROM item LEFT JOIN domain ON domain.id = item.domain_id
          GROUP BY item.domain_id
          """)
      {
        byDomain[row[0] ?? "", default: 0] += row[1]
      }
      var byType: [String: Int] = [:]
      for row in try Row.fetchAll(
        db,
        sql: """
          SELECT content_type.identifier, content_type.tree, counts.n FROM
            (SELECT type_id, count(*) AS n FROM item GROUP BY type_id) AS counts
          LEFT JOIN content_type ON content_type.id = counts.type_id
          """)
      {
        let tree = (row[1] as String?).map(ContentTypeKey.splitTree)
        byType[Self.topLevelType(identifier: row[0], tree: tree), default: 0] += row[2]
      }
      let expired =
        try Int.fetchOne(
          db, sql: "SELECT count(*) FROM item WHERE \(Liveness.expired(now: "?1"))",
          arguments: [now]) ?? 0
      let files =
        try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE st_ino IS NOT NULL") ?? 0
      var renewals: [String: Date] = [:]
      for row in try Row.fetchAll(
        db, sql: "SELECT name, expires FROM domain WHERE expires IS NOT NULL")
      {
        renewals[row[0]] = Date(timeIntervalSinceReferenceDate: row[1])
      }
      var bytes: Int64 = 0
      for suffix in ["", "-wal", "-shm"] {
        var info = stat()
        if stat(path + suffix, &info) == 0 { bytes += Int64(info.st_size) }
      }
      return IndexStatistics(
        path: path, itemCount: itemCount, itemsByDomain: byDomain, itemsByContentType: byType,
        expiredItemCount: expired, fileItemCount: files, customKeyCount: customKeys,
        bytesOnDisk: bytes, domainExpirations: renewals)
    }
  }

  /// Types so general that every file conforms to them: not a useful bucket.
  static let genericTypes: Set<String> = [
    "public.item", "public.data", "public.content", "public.composite-content",
    "public.audiovisual-content",
  ]

  /// The kinds a person sorts files into, most specific first: a type's bucket is the first of
  /// these in its tree. Without this list the broadest specific type would win, and that is
  /// often a container format rather than a kind (an OOXML file's `openxml`, a song's
  /// `audiovisual-content`).
  static let kinds: [String] = [
    "public.directory", "public.image", "public.audio", "public.movie", "com.adobe.pdf",
    "public.presentation", "public.spreadsheet", "org.idpf.epub-container",
    "public.email-message", "public.html", "public.source-code", "public.font",
    "public.composite-content", "public.text", "public.archive",
  ]

  /// The bucket of a type for `lumen status`: the first of `kinds` that its tree (nearest
  /// first: `public.jpeg`'s tree is [public.jpeg, public.image, public.data, …]) holds, else
  /// the broadest type of the tree that is not generic.
  static func topLevelType(identifier: String?, tree: [String]?) -> String {
    let types = (identifier.map { [$0] } ?? []) + (tree ?? [])
    if let kind = kinds.first(where: types.contains) { return kind }
    var best = identifier
    for type in tree ?? [] {
      if genericTypes.contains(type) { break }
      best = type
    }
    return best ?? ""
  }
}

extension SearchableIndex {
  /// Bytes used by each table and index (SQLite's `dbstat`), for `lumen status --verbose` and
  /// the benchmark's bytes-per-item figures. FTS5 tables appear as their shadow tables
  /// (`item_fts_data`, `item_trigram_idx`…).
  public func tableSizes() async throws -> [String: Int64] {
    try await read { db, _ in
      var sizes: [String: Int64] = [:]
      for row in try Row.fetchAll(db, sql: "SELECT name, sum(pgsize) FROM dbstat GROUP BY name") {
        sizes[row[0]] = row[1]
      }
      return sizes
    }
  }
}
