import Foundation
import Glibc
import LumenModel
import Testing

@testable import LumenCrawl

/// The inotify wrapper against the kernel: what events a folder's changes make, names read
/// from the flexible `name[]` member, rename cookies, and the overflow marker.
@Suite("Inotify: events from the kernel")
struct InotifyTests {
  /// Reads until `count` events arrived (or two seconds passed).
  static func read(_ inotify: Inotify, atLeast count: Int) throws -> [InotifyEvent] {
    var events: [InotifyEvent] = []
    let deadline = Date().addingTimeInterval(2)
    while events.count < count && Date() < deadline {
      if inotify.wait(milliseconds: 50) { events += try inotify.readAvailable() }
    }
    return events
  }

  /// Writes a file in place (`TemporaryTree.file` saves atomically, which is a rename too).
  static func write(_ path: String, _ text: String) {
    let descriptor = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o644)
    precondition(descriptor >= 0)
    _ = Glibc.write(descriptor, text, text.utf8.count)
    close(descriptor)
  }

  @Test func createWriteRenameAndDeleteAreReportedWithTheirNames() throws {
    let tree = TemporaryTree("inotify")
    let inotify = try Inotify()
    let watch = try inotify.addWatch(tree.root)
    #expect(watch >= 1)
    Self.write(tree.path("a.txt"), "x")
    // (rename(2) directly: TemporaryTree's helpers want a folder in the path.)
    #expect(rename(tree.path("a.txt"), tree.path("a much longer name than sixteen bytes.txt")) == 0)
    tree.folder("sub")
    tree.remove("a much longer name than sixteen bytes.txt")
    let events = try Self.read(inotify, atLeast: 6)
    let names = events.map { String(decoding: $0.name, as: UTF8.self) }
    #expect(events.allSatisfy { $0.watch == watch })
    #expect(zip(events, names).contains { $0.mask.contains(.create) && $1 == "a.txt" })
    #expect(events.contains { $0.mask.contains(.closeWrite) })
    let from = try #require(events.first { $0.mask.contains(.movedFrom) })
    let to = try #require(events.first { $0.mask.contains(.movedTo) })
    #expect(from.cookie == to.cookie && from.cookie != 0, "a rename's halves share a cookie")
    #expect(String(decoding: to.name, as: UTF8.self) == "a much longer name than sixteen bytes.txt")
    #expect(events.contains { $0.mask == [.create, .isDirectory] && $0.name == Array("sub".utf8) })
    #expect(events.contains { $0.mask.contains(.delete) && $0.name == to.name })
    #expect(
      !events.contains { $0.mask.contains(.open) || $0.mask.contains(.access) },
      "reads make no events")
  }

  @Test func aNameThatIsNotUTF8ArrivesByteForByte() throws {
    let tree = TemporaryTree("inotify")
    let inotify = try Inotify()
    _ = try inotify.addWatch(tree.root)
    let raw: [UInt8] = [0x66, 0xE9, 0x65, 0xFF]
    tree.file(in: "", rawName: raw, "x")
    let events = try Self.read(inotify, atLeast: 1)
    #expect(events.first?.name == raw)
  }

  @Test func watchingTheSameFolderTwiceGivesTheSameWatch() throws {
    let tree = TemporaryTree("inotify")
    tree.folder("a")
    let inotify = try Inotify()
    let first = try inotify.addWatch(tree.path("a"))
    #expect(rename(tree.path("a"), tree.path("b")) == 0)
    #expect(try inotify.addWatch(tree.path("b")) == first, "watches follow inodes, not paths")
    #expect(throws: SystemCallError.self) { try inotify.addWatch(tree.path("missing")) }
  }

  @Test func aFullQueueEndsWithAnOverflowMarker() throws {
    let tree = TemporaryTree("inotify")
    Self.write(tree.path("a"), "")
    Self.write(tree.path("b"), "")
    let inotify = try Inotify()
    _ = try inotify.addWatch(tree.root)
    let limit =
      (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))
      .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 16384
    // Alternating files: the kernel only merges an event equal to the last one queued.
    for round in 0...(limit / 2 + 10) {
      tree.chmod("a", round % 2 == 0 ? 0o600 : 0o644)
      tree.chmod("b", round % 2 == 0 ? 0o600 : 0o644)
    }
    #expect(inotify.queuedBytes > 0)
    var events: [InotifyEvent] = []
    while inotify.wait(milliseconds: 0) { events += try inotify.readAvailable() }
    #expect(events.count == limit + 1)
    let last = try #require(events.last)
    #expect(last.mask.contains(.queueOverflow) && last.watch == -1)
  }
}
