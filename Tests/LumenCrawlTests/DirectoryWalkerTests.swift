import Foundation
import Glibc
import LumenModel
import Testing

@testable import LumenCrawl

@Suite("DirectoryWalker: links, special files, raw names, bounded queue")
struct DirectoryWalkerTests {
  @Test func symbolicLinksAreEntriesAndNeverFollowed() async throws {
    let tree = TemporaryTree("links")
    tree.file("real/a.txt", "a")
    tree.symlink("link-to-dir", to: "real")
    tree.symlink("real/loop", to: "..")
    tree.symlink("self", to: "self")
    tree.symlink("dangling", to: "/nonexistent/target")
    let record = await WalkRecord.walk(try Scope(options: .init(roots: [tree.root])))
    #expect(
      record.relativePaths(under: tree.root) == [
        "dangling", "link-to-dir", "real", "real/a.txt", "real/loop", "self",
      ])
    for link in ["dangling", "link-to-dir", "real/loop", "self"] {
      let entry = try #require(record.entries.first { $0.path == tree.path(link) })
      #expect(entry.status.kind == .symbolicLink)
    }
    #expect(record.listedFolders.sorted() == [tree.root, tree.path("real")])
  }

  @Test func specialFilesAreListedButNeverOpened() async throws {
    let tree = TemporaryTree("fifo")
    tree.fifo("pipe")
    tree.file("plain.txt")
    // Opening a FIFO for reading without a writer would block this test forever.
    let record = await WalkRecord.walk(try Scope(options: .init(roots: [tree.root])))
    let pipe = try #require(record.entries.first { $0.name == "pipe" })
    #expect(pipe.status.kind == .fifo)
    #expect(record.entries.count == 2)
  }

  @Test func namesThatAreNotUTF8KeepTheirBytes() async throws {
    let tree = TemporaryTree("raw")
    let rawName: [UInt8] = [0x63, 0x61, 0x66, 0xE9, 0x2E, 0x74, 0x78, 0x74]  // "caf\xE9.txt"
    tree.file(in: "latin1", rawName: rawName, "bonjour")
    let record = await WalkRecord.walk(try Scope(options: .init(roots: [tree.root])))
    let entry = try #require(record.entries.first { $0.status.kind == .regular })
    #expect(FaithfulPath.hasEscapes(entry.name))
    #expect(FaithfulPath.encode(entry.path) == Array(tree.path("latin1").utf8) + [0x2F] + rawName)
    #expect(try FileStatus.read(path: entry.path).size == 7)
  }

  @Test func aBoundedQueueWalksTheSameTree() async throws {
    let tree = TemporaryTree("wide")
    for top in 0..<30 {
      for inner in 0..<5 { tree.file("d\(top)/e\(inner)/f.txt") }
    }
    let scope = try Scope(options: .init(roots: [tree.root]))
    let reference = await WalkRecord.walk(scope, options: .init(threads: 1, queueLimit: 100_000))
    for options in [
      DirectoryWalker.Options(threads: 2, queueLimit: 1),
      DirectoryWalker.Options(threads: 4, queueLimit: 3),
      DirectoryWalker.Options(threads: 2, queueLimit: 4096),
    ] {
      let record = await WalkRecord.walk(scope, options: options)
      #expect(record.relativePaths(under: tree.root) == reference.relativePaths(under: tree.root))
      #expect(record.listedFolders.count == 1 + 30 + 150)
    }
    #expect(reference.entries.count == 30 + 150 + 150)
  }

  @Test func aMissingRootIsReportedNotFatal() async throws {
    let tree = TemporaryTree("missing")
    tree.file("ok/a.txt")
    let scope = try Scope(options: .init(roots: [tree.path("gone"), tree.path("ok")]))
    let record = await WalkRecord.walk(scope)
    #expect(record.relativePaths(under: tree.path("ok")) == ["a.txt"])
    #expect(record.failures.map(\.path) == [tree.path("gone")])
    #expect(record.failures.first?.error.code == ENOENT)
  }

  @Test func statusComesFromStatx() async throws {
    let tree = TemporaryTree("statx")
    let path = tree.file("a.txt", "hello")
    let record = await WalkRecord.walk(try Scope(options: .init(roots: [tree.root])))
    let entry = try #require(record.entries.first)
    var reference = stat()
    #expect(lstat(path, &reference) == 0)
    #expect(entry.status.device == UInt64(reference.st_dev))
    #expect(entry.status.inode == UInt64(reference.st_ino))
    #expect(entry.status.size == 5)
    #expect(entry.status.permissions == UInt32(reference.st_mode) & 0o7777)
    #expect(
      entry.status.modificationNanos
        == Int64(reference.st_mtim.tv_sec) * 1_000_000_000 + Int64(reference.st_mtim.tv_nsec))
    #expect(entry.status.birthNanos != nil, "ext4 and tmpfs record birth times")
  }
}
