import Foundation
import GRDB
import LumenModel
import LumenQuery
import Testing

@testable import LumenStore

/// An index written before v4 (attribute indexes keyed by value alone and without the type id,
/// a trigram table with positions) is upgraded when it is opened for writing, keeps its items,
/// answers kind-and-size queries from the covering index, seeks the attribute indexes by
/// generation (v5), and answers substrings from the rebuilt trigrams.
@Suite struct MigrationUpgradeTests {
  static let images: [SearchableItem] = [
    fileItem(
      "/p/wide.jpg",
      [
        (.contentType, .text("public.jpeg")), (.pixelWidth, .number(6000)),
        (.fileSize, .number(9_000_000)),
      ]),
    fileItem(
      "/p/narrow.jpg",
      [
        (.contentType, .text("public.jpeg")), (.pixelWidth, .number(1920)),
        (.fileSize, .number(500_000)),
      ]),
    fileItem(
      "/p/wide.mp4",
      [
        (.contentType, .text("public.mpeg-4")), (.pixelWidth, .number(7680)),
        (.fileSize, .number(80_000_000)),
      ]),
  ]

  static let trees: [String: [String]] = [
    "public.jpeg": ["public.jpeg", "public.image", "public.data", "public.item"],
    "public.mpeg-4": ["public.mpeg-4", "public.movie", "public.data", "public.item"],
  ]

  /// The images with their content-type trees set.
  static var items: [SearchableItem] {
    images.map { item in
      var item = item
      let type = item.attributeSet.text(.contentType)!
      item.attributeSet.set(trees[type]!.map(AttributeValue.text), for: .contentTypeTree)
      return item
    }
  }

  /// Turns a current index back into what v3 left on disk: the v1 definitions of the indexes
  /// and the trigram table v4 replaced, and no record of v4 or v5.
  static func downgradeToV3(_ path: String) throws {
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
      for column in StoreMigrations.v1IndexedColumns {
        try db.execute(
          sql: """
            DROP INDEX "item_by_\(column)";
            CREATE INDEX "item_by_\(column)" ON item("\(column)") WHERE "\(column)" IS NOT NULL;
            """)
      }
      try db.execute(
        sql: """
          DROP TABLE item_trigram;
          CREATE VIRTUAL TABLE item_trigram USING fts5(
            terms, content='item_text', content_rowid='item_id',
            tokenize='trigram case_sensitive 1');
          INSERT INTO item_trigram(item_trigram) VALUES ('rebuild');
          DELETE FROM grdb_migrations WHERE identifier IN (
            'v4-covering-kind-and-lean-trigrams', 'v5-generation-keyed-attribute-indexes');
          """)
    }
    try queue.close()
  }

  /// The index's columns by name, nil for an expression (the generation).
  static func indexedColumns(_ index: SearchableIndex, _ name: String) async throws -> [String?] {
    try await index.pool.read { db in
      try Row.fetchAll(db, sql: "PRAGMA index_info(\"\(name)\")").map { $0["name"] }
    }
  }

  @Test func aV3IndexIsUpgradedAndKeepsItsItems() async throws {
    let folder = try TemporaryFolder()
    do {
      let index = try makeIndex(folder)
      try await index.indexSearchableItems(Self.items)
    }
    try Self.downgradeToV3(folder.location().path)
    let before = try DatabaseQueue(path: folder.location().path)
    let v3Columns = try await before.read { db in
      try Row.fetchAll(db, sql: "PRAGMA index_info(item_by_pixelWidth)").map {
        $0["name"] as String
      }
    }
    try before.close()
    #expect(v3Columns == ["pixelWidth"])

    let index = try makeIndex(folder)
    let applied = try await index.pool.read { db in
      try StoreMigrations.migrator.appliedMigrations(db)
    }
    #expect(
      applied.suffix(2) == [
        "v4-covering-kind-and-lean-trigrams", "v5-generation-keyed-attribute-indexes",
      ])
    for column in StoreMigrations.v1IndexedColumns {
      let covered = StoreMigrations.v4KindCoveredColumns.contains(column)
      #expect(
        try await Self.indexedColumns(index, "item_by_\(column)")
          == [nil, column] + (covered ? ["type_id"] : []),
        "\(column)")
    }
    let query = "contentTypeTree == 'public.image' && pixelWidth > 4000"
    #expect(try await identifiers(index, query) == ["/p/wide.jpg"])
    #expect(
      try await identifiers(index, "fileSize > 1000000") == ["/p/wide.jpg", "/p/wide.mp4"])
    let expression = try QueryParser(registry: index.registry).parse(query)
    #expect(try await index.count(expression) == 1)
    let (_, plan) = try await index.explain(expression, options: SearchOptions(limit: 100))
    #expect(plan.contains { $0.contains("item_by_pixelWidth") }, "\(plan)")
    let dates = try QueryParser(registry: index.registry).parse(
      "contentModificationDate > $time.iso('2020-01-01T00:00:00Z')")
    let (_, datePlan) = try await index.explain(dates)
    #expect(
      datePlan.contains { $0.contains("item_by_contentModificationDate (<expr>=? AND") },
      "\(datePlan)")

    let trigramTable = try await index.pool.read { db in
      try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'item_trigram'")
    }
    #expect(trigramTable?.contains("detail=none") == true, "\(trigramTable ?? "")")
    #expect(try await identifiers(index, "fileName == '*ide.*'") == ["/p/wide.jpg", "/p/wide.mp4"])
    #expect(try await identifiers(index, "fileName == '*ARROW*'c") == ["/p/narrow.jpg"])
    let substring = try QueryParser(registry: index.registry).parse("fileName == '*ide.*'")
    let (_, substringPlan) = try await index.explain(substring)
    #expect(substringPlan.contains { $0.contains("item_trigram") }, "\(substringPlan)")
  }
}
