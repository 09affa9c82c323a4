import Foundation
import GRDB
import LumenModel
import Testing

@testable import LumenStore

/// Bulk loads: the attribute indexes dropped with a durable record, queries right without
/// them, and the indexes back after `endBulkLoad` or, when the loader died, at the next
/// writable open (never at a read-only one, never while the loader lives).
@Suite("Bulk loads")
struct BulkLoadTests {
  /// The queries checked while the indexes are missing: each would use one of them.
  static let queries = [
    "fileSize > 5000", "fileSize >= 2000 && fileSize < 7000", "title == 'report 1*'",
    "contentModificationDate > $time.iso('2001-01-01T00:10:00Z')", "pixelWidth == 640",
  ]

  static func items(_ range: Range<Int>) -> [SearchableItem] {
    range.map { n in
      item(
        "item-\(n)",
        [
          (.fileSize, .number(Double(n * 100))), (.title, .text("report \(n)")),
          (
            .contentModificationDate,
            .date(Date(timeIntervalSince1970: 978_307_200 + Double(n) * 10))
          ),
          (.pixelWidth, .number(n % 2 == 0 ? 640 : 800)),
        ])
    }
  }

  /// Index names on `item` as the file has them now.
  static func indexesOnItem(_ path: String) throws -> Set<String> {
    var configuration = Configuration()
    configuration.readonly = true
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    defer { try? queue.close() }
    return try queue.read { db in
      Set(
        try String.fetchAll(
          db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'item'"))
    }
  }

  /// Each query answers the same during a load (indexes dropped, full text behind) and after.
  @Test(arguments: queries + fullTextQueries)
  func queriesAnswerTheSameDuringALoad(query: String) async throws {
    let folder = try TemporaryFolder()
    let plain = try SearchableIndex(location: folder.location("plain.sqlite"))
    try await plain.indexSearchableItems(Self.items(0..<100))
    let expected = try await identifiers(plain, query)
    #expect(!expected.isEmpty && expected.count < 100, "the query must select some items")

    let loaded = try SearchableIndex(location: folder.location("loaded.sqlite"))
    #expect(try await loaded.beginBulkLoad())
    try await loaded.indexSearchableItems(Self.items(0..<100))
    #expect(try await identifiers(loaded, query) == expected)
    try await loaded.endBulkLoad()
    #expect(try await identifiers(loaded, query) == expected)
  }

  @Test func theIndexesAreDroppedWithARecordAndCreatedAgainAtTheEnd() async throws {
    let folder = try TemporaryFolder()
    let path = folder.location().path
    let index = try makeIndex(folder)
    let before = try Self.indexesOnItem(path)
    #expect(before.contains("item_by_fileSize") && before.contains("item_by_title"))
    #expect(try await index.beginBulkLoad())
    #expect(index.isBulkLoading)
    #expect(try await index.beginBulkLoad(), "a second call finds the load under way")
    let during = try Self.indexesOnItem(path)
    let deferred = Set(try await index.deferredIndexes())
    #expect(deferred == before.subtracting(during))
    #expect(deferred == DeferredIndexes.deferrable)
    #expect(during.contains("item_by_type") && during.contains("item_by_title"))
    #expect(
      during.isSuperset(of: ["item_by_uid", "item_by_path", "item_by_inode", "item_by_domain"]),
      "the indexes the writer itself reads stay")
    try await index.indexSearchableItems(Self.items(0..<50))
    try await index.endBulkLoad()
    #expect(!index.isBulkLoading)
    #expect(try Self.indexesOnItem(path) == before)
    #expect(try await index.deferredIndexes().isEmpty)
  }

  @Test func aDeadLoadersIndexesAreCreatedByTheNextWritableOpenOnly() async throws {
    let folder = try TemporaryFolder()
    let location = folder.location()
    var loader: SearchableIndex? = try SearchableIndex(location: location)
    let before = try Self.indexesOnItem(location.path)
    #expect(try await loader!.beginBulkLoad())
    try await loader!.indexSearchableItems(Self.items(0..<100))
    let missing = before.subtracting(try Self.indexesOnItem(location.path))
    #expect(!missing.isEmpty)

    // While the loader lives, another writer neither creates the indexes nor starts a load.
    let other = try SearchableIndex(location: location)
    #expect(try Self.indexesOnItem(location.path) == before.subtracting(missing))
    #expect(try await other.beginBulkLoad() == false)
    #expect(
      try await identifiers(other, "fileSize > 9000") == [
        "item-91", "item-92", "item-93", "item-94", "item-95", "item-96", "item-97", "item-98",
        "item-99",
      ])

    // The loader dies without ending its load (its lock goes with it, as with SIGKILL).
    loader = nil
    let reader = try SearchableIndex(location: location, options: .init(readOnly: true))
    #expect(Set(try await reader.deferredIndexes()) == missing, "a reader creates nothing")
    #expect(try await identifiers(reader, "title == 'report 99'") == ["item-99"])

    let writer = try SearchableIndex(location: location)
    #expect(try Self.indexesOnItem(location.path) == before)
    #expect(try await writer.deferredIndexes().isEmpty)
    #expect(try await identifiers(writer, "title == 'report 99'") == ["item-99"])
    #expect(try await reader.deferredIndexes().isEmpty)
  }

  @Test func aReadOnlyIndexCannotStartALoad() async throws {
    let folder = try TemporaryFolder()
    _ = try makeIndex(folder)
    let reader = try SearchableIndex(location: folder.location(), options: .init(readOnly: true))
    await #expect(throws: SearchableIndexError.self) { try await reader.beginBulkLoad() }
  }

  /// Rows the word index finds for `match`, and FTS5's own check of both tables against
  /// `item_text` (external content: `integrity-check` with rank 1 compares them).
  static func fullText(_ path: String, match: String) throws -> (count: Int, consistent: Bool) {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.write { db in
      let count =
        try Int.fetchOne(
          db, sql: "SELECT count(*) FROM item_fts WHERE item_fts MATCH ?", arguments: [match])
        ?? 0
      do {
        try db.execute(
          sql: """
            INSERT INTO item_fts(item_fts, rank) VALUES ('integrity-check', 1);
            INSERT INTO item_trigram(item_trigram, rank) VALUES ('integrity-check', 1);
            """)
        return (count, true)
      } catch {
        return (count, false)
      }
    }
  }

  /// Name, word and substring queries: each is answered from a full-text table when it is up
  /// to date, and by checking rows when a load has left it behind.
  static let fullTextQueries = [
    "title == 'report 4*'", "title == '*port 7'", "* == 'report 42'cdw", "title == 'REPORT 1'c",
    "* == '*eport 9*'cd",
  ]

  @Test func fullTextIsLeftAloneDuringALoadThenRebuiltFromTheText() async throws {
    let folder = try TemporaryFolder()
    let path = folder.location().path
    let index = try makeIndex(folder, batchSize: 20)
    // Items indexed before the load are in the word index; the load replaces and deletes some.
    try await index.indexSearchableItems(Self.items(0..<30))
    #expect(try Self.fullText(path, match: "report").count == 30)
    #expect(try await index.beginBulkLoad())
    #expect(try await index.isFullTextDeferred())
    try await index.indexSearchableItems(Self.items(20..<100))
    try await index.deleteSearchableItems(withIdentifiers: ["item-3", "item-50"])
    let during = try Self.fullText(path, match: "report")
    #expect(during.count == 30, "the tables are not touched while behind")
    #expect(try await identifiers(index, "title == 'report*'").count == 98)

    try await index.endBulkLoad()
    #expect(try await index.isFullTextDeferred() == false)
    let after = try Self.fullText(path, match: "report")
    #expect(after.count == 98)
    #expect(after.consistent, "both tables agree with item_text")
    #expect(try await identifiers(index, "title == 'report 50'").isEmpty)
    #expect(try await identifiers(index, "title == '*port 77'") == ["item-77"])
  }

  /// A load that keeps full text current (an extracting crawl's) drops the same indexes but
  /// writes the full-text tables batch by batch: they are consistent during the load already.
  @Test func aLoadCanKeepFullTextCurrent() async throws {
    let folder = try TemporaryFolder()
    let path = folder.location().path
    let index = try makeIndex(folder, batchSize: 20)
    try await index.indexSearchableItems(Self.items(0..<30))
    #expect(try await index.beginBulkLoad(deferringFullText: false))
    #expect(try await index.isFullTextDeferred() == false)
    #expect(Set(try await index.deferredIndexes()) == DeferredIndexes.deferrable)
    try await index.indexSearchableItems(Self.items(20..<100))
    try await index.deleteSearchableItems(withIdentifiers: ["item-3", "item-50"])
    let during = try Self.fullText(path, match: "report")
    #expect(during.count == 98 && during.consistent, "the tables follow every batch")
    #expect(try await identifiers(index, "title == '*port 77'") == ["item-77"])

    try await index.endBulkLoad()
    #expect(try await index.deferredIndexes().isEmpty)
    let after = try Self.fullText(path, match: "report")
    #expect(after.count == 98 && after.consistent)
  }

  /// The load's pages are copied from the log into the index file while the indexes are
  /// rebuilt, not left for a checkpoint after it: the file holds them when the load ends.
  @Test func theLoadsPagesAreInTheFileWhenItEnds() async throws {
    let folder = try TemporaryFolder()
    let path = folder.location().path
    let index = try makeIndex(folder, batchSize: 200)
    #expect(try await index.beginBulkLoad())
    try await index.indexSearchableItems(Self.items(0..<2_000))
    let fileBefore = try Self.size(path)
    let log = try Self.size(path + "-wal")
    #expect(log > 4 * fileBefore, "the load's pages wait in the log")
    try await index.endBulkLoad()
    let fileAfter = try Self.size(path)
    #expect(fileAfter > 8 * fileBefore, "file \(fileBefore) → \(fileAfter) bytes, log \(log)")
  }

  static func size(_ path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
  }

  @Test func aDeadLoadersFullTextIsRebuiltByTheNextWritableOpen() async throws {
    let folder = try TemporaryFolder()
    let location = folder.location()
    var loader: SearchableIndex? = try SearchableIndex(location: location)
    #expect(try await loader!.beginBulkLoad())
    try await loader!.indexSearchableItems(Self.items(0..<60))
    loader = nil

    let reader = try SearchableIndex(location: location, options: .init(readOnly: true))
    #expect(try await reader.isFullTextDeferred(), "a reader rebuilds nothing")
    #expect(try await identifiers(reader, "* == 'report 42'cdw") == ["item-42"])

    let writer = try SearchableIndex(location: location)
    #expect(try await writer.isFullTextDeferred() == false)
    let rebuilt = try Self.fullText(location.path, match: "report")
    #expect(rebuilt.count == 60 && rebuilt.consistent)
    #expect(try await identifiers(writer, "* == 'report 42'cdw") == ["item-42"])
  }
}
