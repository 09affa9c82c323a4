import Foundation
import LumenModel
import Testing

@testable import LumenStore

@Suite struct FileIdentityTests {
  static func stamp(_ inode: UInt64, size: Int64 = 10) -> FileStamp {
    FileStamp(
      device: 42, inode: inode, size: size, modificationNanos: 1_700_000_000_123_456_789,
      changeNanos: 1_700_000_001_000_000_000)
  }

  static func record(_ path: String, inode: UInt64, directory: Bool = false, title: String? = nil)
    -> FileRecord
  {
    var pairs: [(AttributeKey, AttributeValue)] = []
    if let title { pairs.append((.title, .text(title))) }
    return FileRecord(
      item: fileItem(path, pairs), stamp: stamp(inode), isDirectory: directory,
      extractor: directory ? nil : ExtractorStamp(name: "text", version: 3))
  }

  private func tree(_ index: SearchableIndex) async throws {
    var records = [Self.record("/home/u/Projects", inode: 1, directory: true)]
    records.append(Self.record("/home/u/Projects/notes.txt", inode: 2, title: "Notes"))
    records.append(Self.record("/home/u/Projects/src", inode: 3, directory: true))
    for number in 0..<50 {
      records.append(
        Self.record("/home/u/Projects/src/file\(number).swift", inode: 100 + UInt64(number)))
    }
    records.append(Self.record("/home/u/ProjectsOld/keep.txt", inode: 9))
    try await index.indexFiles(records, clientState: Data("crawl-1".utf8))
  }

  @Test func childrenListsOneFolderWithStamps() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await tree(index)
    let children = try await index.children(ofDirectory: "/home/u/Projects/")
    #expect(children.map(\.name) == ["notes.txt", "src"])
    #expect(children[0].stamp == Self.stamp(2))
    #expect(children[0].extractor == ExtractorStamp(name: "text", version: 3))
    #expect(children[1].isDirectory && children[1].extractor == nil)
    #expect(try await index.children(ofDirectory: "/home/u/Projects/src").count == 50)
    #expect(try await index.fetchLastClientState() == Data("crawl-1".utf8))
    #expect(try await index.statistics().fileItemCount == 54)
  }

  @Test func filesAreFoundByInode() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await tree(index)
    let found = try await index.files(device: 42, inode: 2)
    #expect(found.map(\.path) == ["/home/u/Projects/notes.txt"])
    #expect(try await index.fileRecord(device: 42, inode: 2)?.entry.stamp == Self.stamp(2))
    #expect(try await index.files(device: 7, inode: 2).isEmpty)
    #expect(try await index.fileRecord(device: 42, inode: 999) == nil)
  }

  @Test func aMovedFileKeepsItsAttributes() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await tree(index)
    #expect(try await index.moveFile(from: "/home/u/Projects/notes.txt", to: "/home/u/Notes.md"))
    #expect(try await index.item(withIdentifier: "/home/u/Projects/notes.txt") == nil)
    let moved = try #require(try await index.item(withIdentifier: "/home/u/Notes.md"))
    #expect(moved.attributes.text(.title) == "Notes")
    #expect(moved.attributes.text(.fileName) == "Notes.md")
    #expect(moved.fileStamp == Self.stamp(2))
    #expect(try await identifiers(index, "fileName == '*notes.md*'c") == ["/home/u/Notes.md"])
    #expect(try await identifiers(index, "fileName == 'notes.txt'") == [])
    #expect(try await index.moveFile(from: "/nowhere", to: "/x") == false)
  }

  @Test func aRenamedFolderMovesEverythingBelowInOneUpdate() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await tree(index)
    try await index.indexSearchableItems([fileItem("/home/u/Work/old.txt")])  // replaced
    try await index.moveDirectory(from: "/home/u/Projects", to: "/home/u/Work")
    #expect(try await index.item(withIdentifier: "/home/u/Work/old.txt") == nil)
    let moved = try #require(try await index.item(withIdentifier: "/home/u/Work/src/file7.swift"))
    #expect(moved.fileStamp == Self.stamp(107))
    #expect(moved.attributes.text(.path) == "/home/u/Work/src/file7.swift")
    #expect(try await identifiers(index, "path == '/home/u/Projects/*'") == [])
    #expect(
      try await index.count(.constant(true), options: SearchOptions(onlyIn: ["/home/u/Work"])) == 52
    )
    #expect(
      try await index.item(withIdentifier: "/home/u/Work")?.attributes.text(.fileName) == "Work")
    #expect(try await identifiers(index, "fileName == 'Work'") == ["/home/u/Work"])
    // A sibling with a common prefix is untouched.
    #expect(try await index.item(withIdentifier: "/home/u/ProjectsOld/keep.txt") != nil)
    #expect(try await index.children(ofDirectory: "/home/u/Work/src").count == 50)
  }

  @Test func aFolderMovedUnderADecomposedNameStaysFindable() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await tree(index)
    let decomposed = "/home/u/Proje\u{301}ts"
    try await index.moveDirectory(from: "/home/u/Projects", to: decomposed)
    // The query's NFC spelling finds the NFD path, as QueryEvaluator would.
    #expect(
      try await identifiers(index, "path == '/home/u/Projéts/notes.txt'")
        == [decomposed + "/notes.txt"])
  }

  @Test func deleteFilesUnderAPath() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await tree(index)
    try await index.indexSearchableItems([item("app", [(.path, .text("/home/u/Projects/x"))])])
    try await index.deleteFiles(underPath: "/home/u/Projects")
    #expect(try await identifiers(index, "true") == ["/home/u/ProjectsOld/keep.txt", "app"])
  }
}
