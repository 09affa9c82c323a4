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

  @Test(arguments: queries)
  func queriesAnswerTheSameWithoutTheIndexes(query: String) async throws {
    let folder = try TemporaryFolder()
    let plain = try SearchableIndex(location: folder.location("plain.sqlite"))
    try await plain.indexSearchableItems(Self.items(0..<100))
    let expected = try await identifiers(plain, query)
    #expect(!expected.isEmpty, "the query must select something to compare")

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
    #expect(deferred.contains("item_by_fileSize") && deferred.contains("item_by_type"))
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
}
