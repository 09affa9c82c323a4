import Foundation
import GRDB
import LumenModel
import Testing

@testable import LumenStore

/// `checkpoint()`: what a crawl leaves in the write-ahead log ends up in the index file.
@Suite("Checkpoints")
struct CheckpointTests {
  static func size(_ path: String) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
  }

  @Test func theLogIsCopiedIntoTheIndexFileAndEmptied() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    let path = folder.location().path
    try await index.indexSearchableItems(
      (0..<2000).map { item("item-\($0)", [(.title, .text("report \($0)"))]) })
    let fileBefore = Self.size(path)
    #expect(Self.size(path + "-wal") > 100_000, "the writer checkpoints only every ~40 MB")

    try await index.checkpoint()
    #expect(Self.size(path + "-wal") == 0)
    #expect(Self.size(path) > fileBefore + 100_000)
    #expect(try await identifiers(index, "title == 'report 1999'") == ["item-1999"])
  }

  @Test func aReaderInTheWayKeepsTheLogButLosesNothing() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    let path = folder.location().path
    try await index.indexSearchableItems((0..<500).map { item("old-\($0)") })
    // A query elsewhere holds a read transaction on the snapshot before the next write.
    var configuration = Configuration()
    configuration.allowsUnsafeTransactions = true
    let reader = try DatabaseQueue(path: path, configuration: configuration)
    try reader.inDatabase { db in
      try db.execute(sql: "BEGIN")
      _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM item")
    }
    try await index.indexSearchableItems((0..<500).map { item("new-\($0)") })
    try await index.checkpoint()
    #expect(Self.size(path + "-wal") > 0, "pages the reader may still need stay in the log")
    try reader.inDatabase { db in try db.execute(sql: "COMMIT") }
    try reader.close()
    #expect(try await index.search(.constant(true)).count == 1000)
  }
}
