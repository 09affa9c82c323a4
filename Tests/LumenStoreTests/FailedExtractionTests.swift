import Foundation
import LumenModel
import Testing

@testable import LumenStore

/// The record of files whose extractor took its worker down: written with the item, in the
/// same transaction, and kept in step with the item through re-indexing, moves and deletions.
@Suite struct FailedExtractionTests {
  static let photo = ExtractorStamp(name: "photo", version: 2)

  static func record(_ path: String, inode: UInt64, failure: String? = nil) -> FileRecord {
    FileRecord(
      item: fileItem(path, [(.contentType, .text("public.jpeg"))]),
      stamp: FileIdentityTests.stamp(inode), isDirectory: false, extractor: photo,
      extractionFailure: failure)
  }

  static func folder(_ path: String, inode: UInt64) -> FileRecord {
    FileRecord(item: fileItem(path), stamp: FileIdentityTests.stamp(inode), isDirectory: true)
  }

  private func paths(_ index: SearchableIndex) async throws -> [String] {
    try await index.failedExtractions().map(\.path).sorted()
  }

  @Test func aFailureIsRecordedWithItsItemAndClearedByTheNextExtraction() async throws {
    let folder = try TemporaryFolder()
    let clock = TestClock()
    let index = try makeIndex(folder, clock: clock)
    try await index.indexFiles([
      Self.folder("/p", inode: 1),
      Self.record("/p/bad.jpg", inode: 2, failure: "the worker crashed with SIGSEGV"),
      Self.record("/p/good.jpg", inode: 3),
    ])
    let failures = try await index.failedExtractions()
    #expect(failures.count == 1)
    let failure = try #require(failures.first)
    #expect(failure.path == "/p/bad.jpg")
    #expect(failure.stamp == FileIdentityTests.stamp(2))
    #expect(failure.extractor == Self.photo)
    #expect(failure.reason == "the worker crashed with SIGSEGV")
    #expect(failure.date == clock.now)
    // The item is there all the same, with the stamp of the extractor that failed.
    let item = try #require(try await index.item(withIdentifier: "/p/bad.jpg"))
    #expect(item.extractor == Self.photo)
    #expect(item.attributes.text(.contentType) == "public.jpeg")

    // Written again without a failure (the file or the extractor changed and it worked).
    try await index.indexFiles([Self.record("/p/bad.jpg", inode: 2)])
    #expect(try await index.failedExtractions().isEmpty)
    // A failure again replaces, never duplicates.
    try await index.indexFiles([Self.record("/p/bad.jpg", inode: 2, failure: "first")])
    try await index.indexFiles([Self.record("/p/bad.jpg", inode: 2, failure: "second")])
    #expect(try await index.failedExtractions().map(\.reason) == ["second"])
  }

  @Test func anAttributesOnlyUpdateKeepsTheFailure() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await index.indexFiles([Self.record("/p/bad.jpg", inode: 2, failure: "hung")])
    var update = Self.record("/p/bad.jpg", inode: 2)
    update.item.isUpdate = true
    try await index.indexFiles([update])
    #expect(try await paths(index) == ["/p/bad.jpg"])
  }

  @Test func movesCarryTheRecordAndDeletionsDropIt() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await index.indexFiles([
      Self.folder("/p", inode: 1), Self.folder("/p/sub", inode: 2),
      Self.record("/p/sub/a.jpg", inode: 3, failure: "crashed"),
      Self.record("/p/sub/b.jpg", inode: 4, failure: "crashed"),
      Self.record("/p/c.jpg", inode: 5, failure: "crashed"),
      Self.record("/p/sub-sibling.jpg", inode: 6, failure: "crashed"),
    ])
    try await index.moveFile(from: "/p/c.jpg", to: "/p/renamed.jpg")
    #expect(
      try await paths(index) == [
        "/p/renamed.jpg", "/p/sub-sibling.jpg", "/p/sub/a.jpg", "/p/sub/b.jpg",
      ])
    try await index.moveDirectory(from: "/p/sub", to: "/p/moved")
    #expect(
      try await paths(index) == [
        "/p/moved/a.jpg", "/p/moved/b.jpg", "/p/renamed.jpg", "/p/sub-sibling.jpg",
      ])
    try await index.deleteFiles(underPath: "/p/moved")
    #expect(try await paths(index) == ["/p/renamed.jpg", "/p/sub-sibling.jpg"])
    try await index.deleteFiles(underPath: "/p/renamed.jpg")
    #expect(try await paths(index) == ["/p/sub-sibling.jpg"])
    try await index.deleteAllSearchableItems()
    #expect(try await paths(index).isEmpty)
  }

  /// An item removed another way (the item API, expiration) leaves a row nobody lists.
  @Test func recordsWithoutTheirItemAreNotListed() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await index.indexFiles([
      Self.record("/p/a.jpg", inode: 1, failure: "x"),
      Self.record("/p/b.jpg", inode: 2, failure: "y"),
    ])
    try await index.deleteSearchableItems(withIdentifiers: ["/p/a.jpg"])
    #expect(try await paths(index) == ["/p/b.jpg"])
    #expect(try await index.failedExtractions(limit: 0).isEmpty)
  }
}
