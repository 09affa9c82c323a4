import Foundation
import GRDB
import LumenModel
import LumenQuery

/// Queries: compiled to SQL (`QueryCompiler`), never evaluated item by item in Swift.
extension SearchableIndex {
  /// The items matching `query`, never an expired one, in the order and with the attributes
  /// `options` ask for.
  public func search(_ query: QueryExpression, options: SearchOptions = SearchOptions())
    async throws -> [SearchResult]
  {
    let now = self.options.clock()
    let layout = self.layout
    return try await read { db, registry in
      let statement = try SearchStatement(
        db, query: query, options: options, kind: .rows, registry: registry, layout: layout,
        now: now)
      return try Self.results(db, statement, options: options, registry: registry, layout: layout)
    }
  }

  /// How many items match `query` (`onlyIn` applies; limit and order do not).
  public func count(_ query: QueryExpression, options: SearchOptions = SearchOptions())
    async throws -> Int
  {
    let now = self.options.clock()
    let layout = self.layout
    return try await read { db, registry in
      let statement = try SearchStatement(
        db, query: query, options: options, kind: .count, registry: registry, layout: layout,
        now: now)
      return try Int.fetchOne(db, sql: statement.sql, arguments: statement.arguments) ?? 0
    }
  }

  /// The SQL a query compiles to, with its arguments, for `lumen find --explain` and tests.
  public func explain(_ query: QueryExpression, options: SearchOptions = SearchOptions())
    async throws -> (sql: String, plan: [String])
  {
    let now = self.options.clock()
    let layout = self.layout
    return try await read { db, registry in
      let statement = try SearchStatement(
        db, query: query, options: options, kind: .rows, registry: registry, layout: layout,
        now: now)
      let plan = try Row.fetchAll(
        db, sql: "EXPLAIN QUERY PLAN " + statement.sql, arguments: statement.arguments
      ).map { row -> String in row["detail"] ?? "" }
      return (statement.sql, plan)
    }
  }

  static func results(
    _ db: Database, _ statement: SearchStatement, options: SearchOptions,
    registry: AttributeRegistry, layout: StorageLayout
  ) throws -> [SearchResult] {
    let reader = ItemReader(db: db, layout: layout, registry: registry)
    var results: [SearchResult] = []
    var rowIDs: [Int64] = []
    let wanted = Set(options.fetchAttributes.map(\.name))
    let cursor = try Row.fetchCursor(db, sql: statement.sql, arguments: statement.arguments)
    while let row = try cursor.next() {
      var attributes = AttributeSet()
      if !wanted.isEmpty {
        var identity = AttributeSet()
        reader.readIdentityAttributes(row, into: &identity)
        for key in options.fetchAttributes {
          switch layout.storage(for: key) {
          case .column(let column):
            if let value = AttributeValue(stored: row[column], as: key.valueType) {
              attributes.set(value, for: key)
            }
          case .path, .fileName:
            if let values = identity[key] { attributes.set(values, for: key) }
          case .contentType:
            if let type: String = row["type_identifier"] { attributes.set(.text(type), for: key) }
          case .contentTypeTree:
            if let tree: String = row["type_tree"] {
              attributes.set(ContentTypeKey.splitTree(tree).map(AttributeValue.text), for: key)
            }
          case .textContent:
            if let text: String = row["text_content"] { attributes.set(.text(text), for: key) }
          case .values:
            break
          }
        }
      }
      rowIDs.append(row["id"])
      results.append(
        SearchResult(
          identifier: ItemReader.identifier(row), path: ItemReader.path(row),
          attributes: attributes, score: statement.ranked ? (row["score"] ?? 0) : 0))
    }
    let valueKeys = options.fetchAttributes.filter { layout.storage(for: $0) == .values }
    if !valueKeys.isEmpty {
      var position: [Int64: Int] = [:]
      for (index, id) in rowIDs.enumerated() { position[id] = index }
      for slice in rowIDs.chunked(by: 1000) {
        try reader.readValues(of: Array(slice), keys: valueKeys) { id, key, values in
          if let index = position[id] { results[index].attributes.set(values, for: key) }
        }
      }
    }
    return results
  }
}
