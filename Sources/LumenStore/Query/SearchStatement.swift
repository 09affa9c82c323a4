import Foundation
import GRDB
import LumenModel
import LumenQuery

/// A compiled search: the SELECT (or count) for a query and its options, with the condition
/// that hides expired items and the `onlyIn` folders.
struct SearchStatement {
  let sql: String
  let arguments: StatementArguments
  /// Whether the rows carry a bm25 `score` column.
  let ranked: Bool

  enum Kind {
    case rows
    case count
  }

  init(
    _ db: Database, query: QueryExpression, options: SearchOptions, kind: Kind,
    registry: AttributeRegistry, layout: StorageLayout, now: Date
  ) throws {
    var attributeIDs: [String: Int64] = [:]
    for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT id, name FROM attribute")) {
      attributeIDs[row[1]] = row[0]
    }
    var compiler = QueryCompiler(
      registry: registry, layout: layout, attributeIDs: attributeIDs,
      fullTextReady: try !DeferredFullText.isDeferred(db))
    var conditions = [compiler.condition(query, topLevel: true)]
    guard !compiler.isTooDeep else {
      throw SearchableIndexError.queryTooComplex(maximumNesting: QueryCompiler.maximumNesting)
    }
    if let live = try Liveness.condition(
      db, now: now.timeIntervalSinceReferenceDate, compiler: &compiler)
    {
      conditions.append(live)
    }
    if !options.onlyIn.isEmpty {
      conditions.append(Self.onlyIn(options.onlyIn, &compiler))
    }
    let ranked =
      kind == .rows && options.order == .relevance && !compiler.rankingMatches.isEmpty
    var from = "item"
    var rankedByDriver = false
    if let driver = compiler.driver {
      from = "\(driver.table) JOIN item ON item.id = \(driver.table).rowid"
      conditions.insert("\(driver.table) MATCH \(driver.match)", at: 0)
      rankedByDriver = ranked && driver.isFreeText
    }
    var join = ""
    if ranked && !rankedByDriver {
      let match = compiler.bind(
        compiler.rankingMatches.map { "(\($0))" }.joined(separator: " AND "))
      join = """
         LEFT JOIN (SELECT rowid AS ranked_id, bm25(item_fts) AS rank FROM item_fts \
        WHERE item_fts MATCH \(match)) AS ranking ON ranking.ranked_id = item.id
        """
    }
    let whereClause = conditions.joined(separator: "\n  AND ")
    let body: String
    switch kind {
    case .count:
      body = "SELECT count(*) FROM \(from) WHERE \(whereClause)"
    case .rows:
      var columns = [ItemReader.identityColumns]
      columns += Self.fetchColumns(options.fetchAttributes, layout: layout)
      if rankedByDriver {
        columns.append("-bm25(item_fts) AS score")
      } else if ranked {
        columns.append("-ranking.rank AS score")
      }
      var text =
        "SELECT \(columns.joined(separator: ", ")) FROM \(from)\(join) WHERE \(whereClause)"
      if rankedByDriver {
        text += " ORDER BY bm25(item_fts), item.id"
      } else if let order = Self.orderBy(options.order, ranked: ranked, layout: layout, &compiler) {
        text += " ORDER BY \(order)"
      }
      if let limit = options.limit { text += " LIMIT \(compiler.bind(max(0, limit)))" }
      body = text
    }
    sql =
      compiler.usesGenerations ? "WITH RECURSIVE \(QueryCompiler.generationTable)\n\(body)" : body
    self.arguments = StatementArguments(compiler.arguments)
    self.ranked = ranked
  }

  /// Items under one of the folders: their directory is the folder or below it.
  private static func onlyIn(_ folders: [String], _ compiler: inout QueryCompiler) -> String {
    let parts = folders.map { folder -> String in
      var trimmed = Substring(folder)
      while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
      let path = compiler.bind(String(trimmed))
      return "path = \(path) OR (path >= \(path) || '/' AND path < \(path) || '0')"
    }
    return """
      (item.dir_id IS NOT NULL AND item.dir_id IN (SELECT id FROM directory WHERE \
      \(parts.joined(separator: " OR "))))
      """
  }

  /// Columns for the fetched attributes kept in or next to `item` (values come separately).
  private static func fetchColumns(_ keys: [AttributeKey], layout: StorageLayout) -> [String] {
    var columns: [String] = []
    for key in keys {
      switch layout.storage(for: key) {
      case .column(let column): columns.append("item.\"\(column)\"")
      case .contentType:
        columns.append(
          "(SELECT identifier FROM content_type WHERE id = item.type_id) AS type_identifier")
      case .contentTypeTree:
        columns.append("(SELECT tree FROM content_type WHERE id = item.type_id) AS type_tree")
      case .textContent:
        columns.append(
          "(SELECT text_content FROM item_text WHERE item_id = item.id) AS text_content")
      case .path, .fileName, .values: continue
      }
    }
    return Array(Set(columns)).sorted()
  }

  private static func orderBy(
    _ order: SearchOptions.Order, ranked: Bool, layout: StorageLayout,
    _ compiler: inout QueryCompiler
  ) -> String? {
    switch order {
    case .unordered: return nil
    case .relevance: return ranked ? "ranking.rank IS NULL, ranking.rank, item.id" : nil
    case .attributes(let keys):
      var terms: [String] = []
      for sortKey in keys {
        let direction = sortKey.ascending ? "ASC" : "DESC"
        let expression: String
        let storage = layout.storage(for: sortKey.key)
        if let value = QueryCompiler.valueExpression(storage) {
          expression = value
        } else {
          switch storage {
          case .contentType:
            expression = "(SELECT identifier FROM content_type WHERE id = item.type_id)"
          case .contentTypeTree:
            expression = """
              (SELECT ancestor FROM content_type_ancestor WHERE type_id = item.type_id \
              ORDER BY ordinal LIMIT 1)
              """
          case .textContent:
            expression = "(SELECT text_content FROM item_text WHERE item_id = item.id)"
          default:
            let name = compiler.bind(sortKey.key.name)
            expression = """
              (SELECT value FROM value WHERE item_id = item.id AND attribute_id = \
              (SELECT id FROM attribute WHERE name = \(name)) ORDER BY ordinal LIMIT 1)
              """
          }
        }
        terms.append("\(expression) IS NULL, \(expression) \(direction)")
      }
      terms.append("item.id")
      return terms.joined(separator: ", ")
    }
  }
}
