import Foundation
import Glibc
import LumenModel
import LumenStore
import Testing

@testable import LumenCrawl

/// What the kernel can take away from a watcher, and how it gets back to what a fresh crawl
/// gives: lost events (a queue overflow), the watch limit, a root that disappears.
@Suite("FolderWatcher: overflows, watch limits, missing roots")
struct WatcherRecoveryTests {
  @Test func aQueueOverflowIsFollowedByARescanThatCatchesTheLostChanges() async throws {
    let tree = FolderWatcherTests.tree()
    let watch = try WatchHarness(tree)
    try await watch.start()
    // Stop reading, so that the kernel's queue (16384 events) fills up.
    watch.watcher.readingPaused.store(true, ordering: .relaxed)
    let paused = watch.watcher.activity.iteration
    try await WatchHarness.eventually("the loop sees the pause") {
      watch.watcher.activity.iteration > paused + 1
    }
    tree.file("Documents/lost.txt", "made while nobody listened")
    tree.move("Documents/old", "Archive")
    tree.remove("Music/song.txt")
    tree.file("a.txt", "a")
    tree.file("b.txt", "b")
    // Alternating attribute changes: the kernel merges only an event equal to the last one.
    let limit =
      (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))
      .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 16384
    for round in 0...(limit / 2 + 1000) {
      tree.chmod("a.txt", round % 2 == 0 ? 0o640 : 0o644)
      tree.chmod("b.txt", round % 2 == 0 ? 0o640 : 0o644)
    }
    watch.watcher.readingPaused.store(false, ordering: .relaxed)
    try await WatchHarness.eventually("an overflow is seen") {
      watch.watcher.activity.overflows >= 1
    }
    try await watch.settle()
    #expect(try await watch.crawl.item("Documents/lost.txt") != nil)
    #expect(try await watch.crawl.item("Archive/letter.txt") != nil)
    #expect(try await watch.crawl.item("Music/song.txt") == nil)
    try await watch.expectMatchesFreshCrawl()
    // And it still follows changes afterwards.
    tree.file("Archive/later.txt", "later")
    try await watch.settle()
    #expect(try await watch.crawl.item("Archive/later.txt") != nil)
    try await watch.stop()
  }

  @Test func foldersBeyondTheWatchLimitAreRescannedPeriodically() async throws {
    let tree = FolderWatcherTests.tree()
    for name in ["a", "b", "c", "d", "e"] { tree.file("More/\(name)/x.txt", name) }
    let watch = try WatchHarness(tree) { options in
      options.maximumWatches = 4
      options.rescanInterval = .milliseconds(500)
    }
    try await watch.start()
    let status = try #require(watch.watcher.status)
    #expect(status.watches == 4)
    #expect(status.unwatchedCount >= 5)
    // Changes in an unwatched folder arrive with the next rescan.
    let unwatched = try #require(status.unwatchedFolders.last)
    let made = unwatched + "/made-later.txt"
    precondition(FileManager.default.createFile(atPath: made, contents: Data("x".utf8)))
    try await WatchHarness.eventually("the rescan finds the new file") {
      try await watch.index.fileEntry(atPath: made) != nil
    }
    try await watch.settle()
    try await watch.expectMatchesFreshCrawl()
    try await watch.stop()
  }

  @Test func aRootThatGoesAwayKeepsItsItemsAndIsCrawledWhenItComesBack() async throws {
    let tree = FolderWatcherTests.tree()
    let root = tree.path("Documents")
    let watch = try WatchHarness(tree, roots: [root]) { options in
      options.rootPollInterval = .milliseconds(100)
    }
    try await watch.start()
    tree.move("Documents", "Elsewhere")
    try await WatchHarness.eventually("the root is missing") {
      watch.watcher.status?.roots.first?.state == "missing"
    }
    #expect(
      try await watch.index.fileEntry(atPath: root + "/notes.txt") != nil,
      "its items stay until they expire")
    tree.file("Elsewhere/while-away.txt", "not ours")
    try await watch.settle()
    tree.move("Elsewhere", "Documents")
    try await WatchHarness.eventually("the root is back") {
      watch.watcher.status?.roots.first?.state == "watching"
    }
    try await watch.settle()
    #expect(try await watch.index.fileEntry(atPath: root + "/while-away.txt") != nil)
    tree.file("Documents/after.txt", "after")
    try await watch.settle()
    #expect(try await watch.index.fileEntry(atPath: root + "/after.txt") != nil)
    try await watch.expectMatchesFreshCrawl()
    try await watch.stop()
  }
}
