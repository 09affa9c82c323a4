import Foundation
import LumenModel
import Testing

@testable import LumenStore

@Suite struct BatchTests {
  private func items(_ range: Range<Int>, prefix: String = "item") -> [SearchableItem] {
    range.map { item("\(prefix)-\($0)", [(.title, .text("title \($0)"))]) }
  }

  @Test func twelveHundredItemsAreThreeTransactions() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    let before = index.commits.withLock { $0 }
    try await index.indexSearchableItems(items(0..<1200))
    #expect(index.commits.withLock { $0 } - before == 3)
    #expect(try await index.count(.constant(true)) == 1200)
  }

  @Test func batchSizeIsASetting() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder, batchSize: 100)
    let before = index.commits.withLock { $0 }
    try await index.indexSearchableItems(items(0..<250))
    #expect(index.commits.withLock { $0 } - before == 3)
  }

  @Test func aBatchFlushesFullChunksAndCommitsTheStateWithTheLast() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    let reader = try SearchableIndex(
      location: folder.location(), options: .init(readOnly: true))
    try index.beginBatch()
    try await index.indexSearchableItems(items(0..<700))
    // One full chunk of 500 is written; 200 wait for more or for the end.
    #expect(try await reader.count(.constant(true)) == 500)
    try await index.indexSearchableItems(items(700..<1200))
    #expect(try await reader.count(.constant(true)) == 1000)
    #expect(try await reader.fetchLastClientState() == nil)
    let before = index.commits.withLock { $0 }
    try await index.endBatch(clientState: Data("upto-1200".utf8))
    #expect(index.commits.withLock { $0 } - before == 1)
    #expect(try await reader.count(.constant(true)) == 1200)
    #expect(try await reader.fetchLastClientState() == Data("upto-1200".utf8))
  }

  @Test func aFailingLastChunkLeavesThePreviousStateAndNoneOfItsItems() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try index.beginBatch()
    try await index.indexSearchableItems(items(0..<10, prefix: "first"))
    try await index.endBatch(clientState: Data("first".utf8))

    let numberKey = try AttributeKey.custom("score", valueType: .number)
    let textKey = try AttributeKey.custom("score", valueType: .text)
    try index.beginBatch()
    try await index.indexSearchableItems(items(0..<500, prefix: "second"))  // flushed
    var tail = items(500..<600, prefix: "second")
    tail[0].attributeSet.set(.number(1), for: numberKey)
    tail[50].attributeSet.set(.text("x"), for: textKey)  // conflicting declaration: fails
    try await index.indexSearchableItems(tail)
    await #expect(throws: SearchableIndexError.attributeKey(.conflictingDeclaration("score"))) {
      try await index.endBatch(clientState: Data("second".utf8))
    }
    // The state still says "first"; the flushed chunk is in, the failed one is not.
    #expect(try await index.fetchLastClientState() == Data("first".utf8))
    #expect(try await identifiers(index, "title == \"title 550\"").isEmpty)
    #expect(try await index.count(.constant(true)) == 510)
    #expect(try await index.item(withIdentifier: "second-500") == nil)
    #expect(try await index.item(withIdentifier: "second-499") != nil)
    // The failed transaction's custom key was not adopted either.
    #expect(index.registry.key(named: "score") == nil)
  }

  @Test func clientStateOver250BytesIsRefusedAndNothingIsWritten() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try index.beginBatch()
    try await index.indexSearchableItems(items(0..<3))
    await #expect(throws: SearchableIndexError.clientStateTooLarge(bytes: 251)) {
      try await index.endBatch(clientState: Data(repeating: 1, count: 251))
    }
    #expect(try await index.count(.constant(true)) == 0)
    #expect(try await index.fetchLastClientState() == nil)
    // The batch stays open; a valid state ends it.
    try await index.endBatch(clientState: Data(repeating: 2, count: 250))
    #expect(try await index.count(.constant(true)) == 3)
    #expect(try await index.fetchLastClientState() == Data(repeating: 2, count: 250))
  }

  @Test func batchMisuseIsATypedError() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    await #expect(throws: SearchableIndexError.noOpenBatch) {
      try await index.endBatch(clientState: Data())
    }
    try index.beginBatch()
    #expect(throws: SearchableIndexError.batchAlreadyOpen) { try index.beginBatch() }
  }

  @Test func deletesInABatchKeepTheirOrder() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try index.beginBatch()
    try await index.indexSearchableItems(items(0..<3))
    try await index.deleteSearchableItems(withIdentifiers: ["item-1"])
    try await index.indexSearchableItems([item("item-1", [(.title, .text("again"))])])
    try await index.deleteSearchableItems(withIdentifiers: ["item-2"])
    try await index.endBatch(clientState: Data("s".utf8))
    #expect(try await identifiers(index, "true") == ["item-0", "item-1"])
    #expect(try await index.item(withIdentifier: "item-1")?.attributes.text(.title) == "again")
  }
}
