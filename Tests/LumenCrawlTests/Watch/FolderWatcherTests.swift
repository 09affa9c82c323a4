import Foundation
import Glibc
import LumenModel
import LumenStore
import Testing

@testable import LumenCrawl

/// The watcher on real folders with real inotify: each test changes a tree while the watcher
/// runs, waits until it has caught up, and checks its index against a fresh crawl.
@Suite("FolderWatcher: live changes on real folders")
struct FolderWatcherTests {
  static func tree() -> TemporaryTree {
    let tree = TemporaryTree("watch")
    tree.file("Documents/notes.txt", "shopping list\n")
    tree.file("Documents/old/letter.txt", "dear ann\n")
    tree.file("Music/song.txt", "la la\n")
    tree.file(".hidden/secret.txt", "s")
    return tree
  }

  @Test func createsModificationsAndDeletionsReachTheIndex() async throws {
    let watch = try WatchHarness(Self.tree())
    try await watch.start()
    let tree = watch.tree
    tree.file("Documents/new.txt", "fresh\n")
    // A new folder filled at once: files made before its watch lands are found by its scan.
    tree.file("Projects/app/src/main.txt", "code\n")
    tree.file("Projects/app/README.txt", "read me\n")
    tree.file("Music/song.txt", "la la la, longer now\n")
    tree.remove("Documents/old")
    try await watch.settle()
    #expect(try await watch.crawl.item("Projects/app/src/main.txt") != nil)
    #expect(try await watch.crawl.item("Documents/old/letter.txt") == nil)
    #expect(
      try await watch.crawl.item("Music/song.txt")?.attributes.number(.fileSize) == 21)
    #expect(try await watch.crawl.item(".hidden/secret.txt") == nil, "hidden stays out")
    try await watch.expectMatchesFreshCrawl()
    try await watch.stop()
  }

  @Test func renamesMoveItemsWithoutReadingThemAgain() async throws {
    let watch = try WatchHarness(Self.tree())
    try await watch.start()
    let tree = watch.tree
    let extractedBefore = watch.extraction.count
    tree.move("Documents/notes.txt", "Documents/list.txt")
    tree.move("Music/song.txt", "Documents/song.txt")
    tree.move("Documents/old", "Archive/2024")
    try await watch.settle()
    #expect(
      watch.extraction.count == extractedBefore,
      "a rename is not an extraction: read \(watch.extraction.calls.withLock { $0.dropFirst(extractedBefore) })"
    )
    #expect(try await watch.crawl.item("Documents/list.txt") != nil)
    #expect(try await watch.crawl.item("Archive/2024/letter.txt") != nil)
    #expect(try await watch.crawl.item("Documents/old/letter.txt") == nil)
    let title = try await watch.crawl.item("Archive/2024/letter.txt")?.attributes.text(.title)
    #expect(title?.hasPrefix("extraction ") == true, "extracted attributes travel with the item")
    try await watch.expectMatchesFreshCrawl()
    try await watch.stop()
  }

  @Test func movesOutOfAndIntoTheRootsAreDeletionsAndAdditions() async throws {
    let outside = TemporaryTree("outside")
    outside.file("incoming/a.txt", "a")
    outside.file("incoming/deep/b.txt", "b")
    outside.file("single.txt", "one")
    let watch = try WatchHarness(Self.tree())
    try await watch.start()
    let tree = watch.tree
    precondition(rename(tree.path("Documents/old"), outside.path("gone")) == 0)
    precondition(rename(tree.path("Music/song.txt"), outside.path("song.txt")) == 0)
    precondition(rename(outside.path("incoming"), tree.path("incoming")) == 0)
    precondition(rename(outside.path("single.txt"), tree.path("Music/single.txt")) == 0)
    // Renamed to a hidden name: out of scope, so out of the index.
    tree.move("Documents/notes.txt", "Documents/.notes.txt")
    try await watch.settle()
    #expect(try await watch.crawl.item("Documents/old/letter.txt") == nil)
    #expect(try await watch.crawl.item("incoming/deep/b.txt") != nil)
    #expect(try await watch.crawl.item("Music/single.txt") != nil)
    #expect(try await watch.crawl.item("Documents/notes.txt") == nil)
    // The folder moved out keeps no watch: changes there are not ours any more.
    outside.file("gone/after.txt", "x")
    try await watch.settle()
    #expect(try await watch.crawl.item("Documents/old/after.txt") == nil)
    try await watch.expectMatchesFreshCrawl()
    try await watch.stop()
  }

  @Test func anAtomicSaveIsAnUpdateOfTheTarget() async throws {
    let watch = try WatchHarness(Self.tree())
    try await watch.start()
    let tree = watch.tree
    // An editor's save: the new content goes to a temporary file renamed over the target,
    // visible (notes.txt.new) or hidden (.notes.txt.swp).
    tree.file("Documents/notes.txt.new", "shopping list\nmilk\n")
    tree.move("Documents/notes.txt.new", "Documents/notes.txt")
    try await watch.settle()
    #expect(try await watch.crawl.item("Documents/notes.txt")?.attributes.number(.fileSize) == 19)
    #expect(try await watch.crawl.item("Documents/notes.txt.new") == nil)
    tree.file("Music/.song.txt.swp", "la la la la\n")
    tree.move("Music/.song.txt.swp", "Music/song.txt")
    try await watch.settle()
    #expect(try await watch.crawl.item("Music/song.txt")?.attributes.number(.fileSize) == 12)
    try await watch.expectMatchesFreshCrawl()
    try await watch.stop()
  }

  /// Rewritten in place (truncate and write, as most programs save) or saved atomically (a
  /// temporary file renamed over it, as editors and `FileManager` save).
  @Test(arguments: [false, true])
  func aFileRewrittenAHundredTimesInASecondIsReadAtMostTwice(atomically: Bool) async throws {
    // A burst ends after `hotQuiet` without a write: 2 s here rather than 200 ms, so that a
    // loaded machine pausing this test's writing thread does not end it early.
    let watch = try WatchHarness(Self.tree()) { $0.hotQuiet = .seconds(2) }
    try await watch.start()
    let path = watch.tree.path("Music/song.txt")
    let before = watch.extractions(of: "Music/song.txt")
    let started = ContinuousClock.now
    // Pauses of `hotQuiet` or more between two writes: in a whole test run this task can wait
    // that long for a thread, and then the burst has truly ended and the file is rightly read.
    var quietPauses = 0
    var lastWrite = started
    for round in 0..<100 {
      let contents = Data("version \(round)\n".utf8)
      if atomically {
        try contents.write(to: URL(fileURLWithPath: path), options: .atomic)
      } else {
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: contents)
        try handle.close()
      }
      let now = ContinuousClock.now
      if round > 0 && now - lastWrite >= .seconds(2) { quietPauses += 1 }
      lastWrite = now
      try await Task.sleep(for: .milliseconds(8))
    }
    let burst = ContinuousClock.now - started
    try await watch.settle()
    let reads = watch.extractions(of: "Music/song.txt") - before
    #expect(
      reads >= 1 && reads <= 2 + quietPauses,
      "read \(reads) times for 100 writes in \(burst), \(quietPauses) pauses of 2 s or more")
    #expect(
      try await watch.crawl.item("Music/song.txt")?.attributes.number(.fileSize)
        == Double("version 99\n".utf8.count), "the last version is the one indexed")
    try await watch.expectMatchesFreshCrawl()
    try await watch.stop()
  }

  @Test func permissionAndTimeChangesDoNotReadTheFileAgain() async throws {
    let watch = try WatchHarness(Self.tree())
    try await watch.start()
    let tree = watch.tree
    let before = watch.extraction.count
    tree.chmod("Documents/notes.txt", 0o600)
    // utimensat with the times it already has: an IN_ATTRIB and a new ctime, same content.
    let status = try FileStatus.read(path: tree.path("Music/song.txt"))
    var times = [
      timespec(
        tv_sec: Int(status.modificationNanos / 1_000_000_000),
        tv_nsec: Int(status.modificationNanos % 1_000_000_000)),
      timespec(
        tv_sec: Int(status.modificationNanos / 1_000_000_000),
        tv_nsec: Int(status.modificationNanos % 1_000_000_000)),
    ]
    #expect(utimensat(AT_FDCWD, tree.path("Music/song.txt"), &times, 0) == 0)
    try await watch.settle()
    #expect(watch.extraction.count == before, "no file was read again")
    #expect(
      try await watch.crawl.item("Documents/notes.txt")?.attributes.number(.fileMode) == 0o600)
    try await watch.expectMatchesFreshCrawl()
    try await watch.stop()
  }

  @Test func aBurstOfTenThousandFilesGoesInLargeBatches() async throws {
    let watch = try WatchHarness(Self.tree())
    for folder in 0..<10 { watch.tree.folder("burst/\(folder)") }
    try await watch.start()
    let tree = watch.tree
    for folder in 0..<10 {
      for number in folder * 1000..<(folder + 1) * 1000 {
        let descriptor = open(
          tree.path("burst/\(folder)/file-\(number).txt"), O_CREAT | O_WRONLY, 0o644)
        _ = write(descriptor, "\(number)", "\(number)".utf8.count)
        close(descriptor)
      }
    }
    try await watch.settle(timeout: .seconds(60))
    let paths = try await watch.crawl.indexedPaths()
    #expect(paths.filter { $0.hasPrefix("burst/") && $0.hasSuffix(".txt") }.count == 10_000)
    let commits = watch.watcher.activity.commits
    #expect(commits < 400, "\(commits) commits for 10,000 files")
    try await watch.expectMatchesFreshCrawl(attributes: false)
    try await watch.stop()
  }

  @Test func changedIgnoreRulesAreAppliedToWhatIsIndexed() async throws {
    let watch = try WatchHarness(Self.tree())
    try await watch.start()
    let tree = watch.tree
    tree.file("Documents/build.log", "log")
    tree.file("Documents/old/trace.log", "log")
    try await watch.settle()
    #expect(try await watch.crawl.item("Documents/build.log") != nil)
    tree.file("Documents/.ignore", "*.log\n")
    try await watch.settle()
    #expect(try await watch.crawl.item("Documents/build.log") == nil)
    #expect(try await watch.crawl.item("Documents/old/trace.log") == nil)
    try await watch.expectMatchesFreshCrawl()
    tree.remove("Documents/.ignore")
    try await watch.settle()
    #expect(try await watch.crawl.item("Documents/old/trace.log") != nil)
    try await watch.expectMatchesFreshCrawl()
    try await watch.stop()
  }
}
