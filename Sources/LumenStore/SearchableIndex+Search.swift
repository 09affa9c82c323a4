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
    return try await readQuery { db, registry in
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
    return try await readQuery { db, registry in
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
    return try await readQuery { db, registry in
      let statement = try SearchStatement(
        db, query: query, options: options, kind: .rows, registry: registry, layout: layout,
        now: now)
      let plan = try Row.fetchAll(
        db, sql: "EXPLAIN QUERY PLAN " + statement.sql, arguments: statement.arguments
      ).map { row -> String in row["detail"] ?? "" }
      return (statement.sql, plan)
    }
  }

  /// Calls `body` with each match, in order, reading the rows in pages so that memory stays
  /// bounded however many items match (`lumen find` without `--limit`); `body` returns false
  /// to stop. All pages come from one read transaction, so they are one consistent snapshot.
  public func enumerateResults(
    _ query: QueryExpression, options: SearchOptions = SearchOptions(),
    _ body: @escaping @Sendable (SearchResult) -> Bool
  ) async throws {
    let now = self.options.clock()
    let layout = self.layout
    try await readQuery { db, registry in
      let statement = try SearchStatement(
        db, query: query, options: options, kind: .rows, registry: registry, layout: layout,
        now: now)
      try Self.results(
        db, statement, options: options, registry: registry, layout: layout, sink: body)
    }
  }

  /// `read`, with SQLite's refusals of an oversized query (expression depth, parser stack,
  /// number of values) reported as `queryTooComplex` rather than as an internal error.
  func readQuery<T: Sendable>(
    _ body: @escaping @Sendable (Database, AttributeRegistry) throws -> T
  ) async throws -> T {
    do {
      return try await read(body)
    } catch let error as DatabaseError
      where error.resultCode == .SQLITE_ERROR
      && ["too large", "stack overflow", "too many SQL variables"].contains(where: {
        error.message?.contains($0) == true
      })
    {
      throw SearchableIndexError.queryTooComplex(maximumNesting: QueryCompiler.maximumNesting)
    }
  }

  static func results(
    _ db: Database, _ statement: SearchStatement, options: SearchOptions,
    registry: AttributeRegistry, layout: StorageLayout
  ) throws -> [SearchResult] {
    var results: [SearchResult] = []
    try self.results(db, statement, options: options, registry: registry, layout: layout) {
      results.append($0)
      return true
    }
    return results
  }

  /// The rows of a search as results, a page at a time: each page's multi-valued attributes
  /// are read in one query before its results are handed on.
  static func results(
    _ db: Database, _ statement: SearchStatement, options: SearchOptions,
    registry: AttributeRegistry, layout: StorageLayout, sink: (SearchResult) -> Bool
  ) throws {
    let reader = ItemReader(db: db, layout: layout, registry: registry)
    let valueKeys = options.fetchAttributes.filter { layout.storage(for: $0) == .values }
    var page: [SearchResult] = []
    var rowIDs: [Int64] = []
    func flush() throws -> Bool {
      defer {
        page.removeAll(keepingCapacity: true)
        rowIDs.removeAll(keepingCapacity: true)
      }
      if !valueKeys.isEmpty && !rowIDs.isEmpty {
        var position: [Int64: Int] = [:]
        for (index, id) in rowIDs.enumerated() { position[id] = index }
        try reader.readValues(of: rowIDs, keys: valueKeys) { id, key, values in
          if let index = position[id] { page[index].attributes.set(values, for: key) }
        }
      }
      for result in page where !sink(result) { return false }
      return true
    }
    let cursor = try Row.fetchCursor(db, sql: statement.sql, arguments: statement.arguments)
    while let row = try cursor.next() {
      rowIDs.append(row["id"])
      page.append(
        SearchResult(
          identifier: ItemReader.identifier(row), path: ItemReader.path(row),
          attributes: fetched(row, options.fetchAttributes, reader: reader, layout: layout),
          score: statement.ranked ? (row["score"] ?? 0) : 0))
      if page.count == 500, try !flush() { return }
    }
    _ = try flush()
  }

  /// The fetched attributes kept in or next to the row itself.
  private static func fetched(
    _ row: Row, _ keys: [AttributeKey], reader: ItemReader, layout: StorageLayout
  ) -> AttributeSet {
    var attributes = AttributeSet()
    guard !keys.isEmpty else { return attributes }
    var identity = AttributeSet()
    reader.readIdentityAttributes(row, into: &identity)
    for key in keys {
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
    return attributes
  }
}
