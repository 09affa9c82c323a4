import Foundation
import GRDB
import LumenModel
import Testing

@testable import LumenStore

/// Records laid out in rows ahead of the write (`SearchableIndex.draftRows`, done on a crawl's
/// walk threads) are stored exactly as the writer stores them when it lays them out itself.
@Suite("Row drafts")
struct RowDraftTests {
  static func record(
    _ path: String, _ pairs: [(AttributeKey, AttributeValue)], inode: UInt64,
    directory: Bool = false
  ) -> FileRecord {
    FileRecord(
      item: SearchableItem(
        uniqueIdentifier: path, domainIdentifier: "/home", attributeSet: AttributeSet(pairs)),
      stamp: FileStamp(
        device: 7, inode: inode, size: 1000 + Int64(inode), modificationNanos: 5_000 * Int64(inode),
        changeNanos: 6_000 * Int64(inode)),
      isDirectory: directory,
      extractor: directory ? nil : ExtractorStamp(name: "text", version: 2))
  }

  /// One of each shape a crawl writes: a folder, a plain file, a name in NFD, a file whose
  /// `fileName` is not its path's last component, an extracted document with multi-valued
  /// authors and a body, an item with no `path` attribute, and one with a custom key.
  static func records() throws -> [FileRecord] {
    let date = Date(timeIntervalSinceReferenceDate: 700_000_000)
    let rating = try AttributeKey.custom("rating_stars", valueType: .number)
    return [
      record("/home/docs", [(.fileName, .text("docs"))], inode: 1, directory: true),
      record(
        "/home/docs/notes.txt",
        [
          (.path, .text("/home/docs/notes.txt")), (.fileName, .text("notes.txt")),
          (.displayName, .text("notes.txt")), (.fileSize, .number(1200)),
          (.contentModificationDate, .date(date)), (.contentType, .text("public.plain-text")),
        ], inode: 2),
      record(
        "/home/docs/Cafe\u{301}.md",
        [(.fileName, .text("Cafe\u{301}.md")), (.displayName, .text("Café"))], inode: 3),
      record("/home/docs/a.txt", [(.fileName, .text("b.txt"))], inode: 4),
      record(
        "/home/docs/paper.pdf",
        [
          (.title, .text("On Sorting")), (.authors, .text("Knuth")),
          (.authors, .text("Pratt")), (.pageCount, .number(12)),
          (.textContent, .text("Résumé of the budget, 2024.")),
          (.contentType, .text("com.adobe.pdf")),
          (
            .contentTypeTree,
            .text("com.adobe.pdf")
          ),
        ], inode: 5),
      record("/home/docs/bare", [], inode: 6),
      record(
        "/home/docs/rated.jpg", [(rating, .number(4)), (.pixelWidth, .number(640))], inode: 7),
    ]
  }

  /// Every stored row of the tables an item is written to, ids included.
  static func dump(_ path: String) throws -> [String] {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { db in
      var lines: [String] = []
      for table in ["item", "value", "item_text", "directory", "domain", "content_type"] {
        for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1") {
          lines.append("\(table): \(row)")
        }
      }
      return lines
    }
  }

  @Test func draftedRecordsAreStoredAsTheWriterStoresThem() async throws {
    let folder = try TemporaryFolder()
    let plainPath = folder.location("plain.sqlite")
    let draftedPath = folder.location("drafted.sqlite")
    let plain = try SearchableIndex(location: plainPath)
    let drafted = try SearchableIndex(location: draftedPath)
    // `indexFilesNow` leaves undrafted records to the writer (`indexFiles` drafts them first).
    try plain.indexFilesNow(try Self.records())

    var records = try Self.records()
    drafted.draftRows(&records)
    #expect(records.filter { $0.draft != nil }.count == records.count - 1)
    #expect(records.last?.draft == nil, "a custom key is the writer's to declare")
    try await drafted.indexFiles(records)

    let expected = try Self.dump(plainPath.path).map(Self.withoutExpiry)
    let actual = try Self.dump(draftedPath.path).map(Self.withoutExpiry)
    #expect(expected.count >= 15)
    #expect(actual == expected)
    for query in [
      "authors == 'pratt'c", "* == 'resume'cd", "fileName == 'cafe*'cd", "rating_stars == 4",
    ] {
      #expect(try await identifiers(drafted, query) == identifiers(plain, query), "\(query)")
    }
  }

  /// Items of every shape, many enough that `indexSearchableItems` drafts each chunk on
  /// several tasks and the next chunk while the one before is written.
  static func items() throws -> [SearchableItem] {
    let stars = try AttributeKey.custom("stars", valueType: .number)
    var items: [SearchableItem] = []
    for number in 0..<330 {
      var attributes = AttributeSet()
      attributes.set(.text("Message \(number) from Zürich"), for: .title)
      attributes.set(
        .date(Date(timeIntervalSinceReferenceDate: Double(number) * 3_600)),
        for: .contentCreationDate)
      attributes.set([.text("Ada"), .text("Grace \(number % 7)")], for: .authors)
      if number % 3 == 0 {
        attributes.set(.text("Body \(number): résumé, budget."), for: .textContent)
      }
      if number % 11 == 0 { attributes.set(.number(Double(number % 5)), for: stars) }
      items.append(
        SearchableItem(
          uniqueIdentifier: "mail-\(number % 300)", domainIdentifier: "mail.inbox",
          attributeSet: attributes))
    }
    var update = AttributeSet()
    update.set(.text("Changed"), for: .title)
    // Last, so that it changes the item the last full `mail-5` left.
    items.append(
      SearchableItem(
        uniqueIdentifier: "mail-5", domainIdentifier: "mail.inbox", attributeSet: update,
        isUpdate: true))
    return items
  }

  @Test func itemsDraftedBeforeTheWriterAreStoredAsTheWriterStoresThem() async throws {
    let folder = try TemporaryFolder()
    let plainPath = folder.location("plain.sqlite")
    let draftedPath = folder.location("drafted.sqlite")
    let options = SearchableIndex.Options(batchSize: 200)
    let plain = try SearchableIndex(location: plainPath, options: options)
    let drafted = try SearchableIndex(location: draftedPath, options: options)
    // A batch's items are laid out by the writer itself, in the same chunks.
    try await plain.beginBatch()
    try await plain.indexSearchableItems(try Self.items())
    try await plain.endBatch(clientState: Data())
    try await drafted.indexSearchableItems(try Self.items())

    let expected = try Self.dump(plainPath.path).map(Self.withoutExpiry)
    let actual = try Self.dump(draftedPath.path).map(Self.withoutExpiry)
    #expect(expected.count > 900)
    #expect(actual == expected)
    for query in ["title == 'changed'c", "stars == 0", "* == 'resume'cd", "authors == 'grace 3'c"] {
      #expect(try await identifiers(drafted, query) == identifiers(plain, query), "\(query)")
    }
    #expect(try await identifiers(drafted, "title == 'changed'c") == ["mail-5"])
  }

  @Test func aDraftIsDroppedWhenTheItemChanges() async throws {
    let folder = try TemporaryFolder()
    let index = try SearchableIndex(location: folder.location())
    var records = [Self.record("/home/x.txt", [(.title, .text("old"))], inode: 9)]
    index.draftRows(&records)
    #expect(records[0].draft != nil)
    records[0].item.attributeSet.set(.text("new"), for: .title)
    #expect(records[0].draft == nil)
    try await index.indexFiles(records)
    #expect(try await identifiers(index, "title == 'new'") == ["/home/x.txt"])
  }

  /// Expiration dates follow each index's clock; everything else must be equal.
  static func withoutExpiry(_ line: String) -> String {
    line.replacingOccurrences(
      of: #"expires:[0-9.e+]+"#, with: "expires:…", options: .regularExpression)
  }
}
