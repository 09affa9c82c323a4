import Foundation
import Glibc
import LumenExtract
import LumenModel
import LumenStore
import Synchronization
import Testing

@testable import LumenCrawl

/// The crawl end to end: real trees in temporary folders, a real index file, the same calls
/// `lumen index` makes.
@Suite("IndexingPipeline: incremental crawls into a real index")
struct IndexingPipelineTests {
  /// A small home: documents, a photo, a project with ignored build output, hidden and marked
  /// folders.
  static func home() throws -> TemporaryTree {
    let tree = TemporaryTree("home")
    tree.file("Documents/notes.txt", "shopping list\n")
    tree.file("Documents/report.md", "# Report\n")
    tree.write(
      "Pictures/photo.jpg",
      Array(
        try Data(
          contentsOf: URL(
            fileURLWithPath: CrawlHarness.packageRoot + "/../shared/corpus/images/DSCN0010.jpg"))))
    tree.file("Projects/app/.gitignore", "build/\n")
    tree.file("Projects/app/main.py", "print('hi')\n")
    tree.file("Projects/app/build/out.o", "obj")
    try tree.git(["init", "-q"], in: "Projects/app")
    tree.file(".secret/key", "k")
    tree.file("Music/.nomedia")
    tree.file("Music/song.mp3", "not really")
    return tree
  }

  static let homeItems: Set<String> = [
    "", "Documents", "Documents/notes.txt", "Documents/report.md", "Pictures",
    "Pictures/photo.jpg", "Projects", "Projects/app", "Projects/app/main.py",
  ]

  @Test func firstCrawlIndexesWhatTheScopeAdmits() async throws {
    let harness = try CrawlHarness(try Self.home())
    let summary = try await harness.crawl()
    #expect(try await harness.indexedPaths() == Self.homeItems)
    #expect(summary.added == Self.homeItems.count)
    #expect(summary.updated == 0 && summary.removed == 0 && summary.moved == 0)
    #expect(summary.failed == 0)
    #expect(summary.reExtracted == 4, "the four regular files were read, nothing else")
    #expect(summary.excluded >= 3, "hidden, gitignored and .nomedia entries")
  }

  @Test func fileItemsCarryFileSystemAttributesAndTypes() async throws {
    let harness = try CrawlHarness(try Self.home())
    _ = try await harness.crawl()
    let tree = harness.tree
    let photo = try #require(try await harness.item("Pictures/photo.jpg"))
    let attributes = photo.attributes
    let status = try FileStatus.read(path: tree.path("Pictures/photo.jpg"))
    #expect(photo.identifier == tree.path("Pictures/photo.jpg"))
    #expect(photo.domainIdentifier == FileDomain.identifier(forRoot: tree.root))
    #expect(attributes.text(.path) == tree.path("Pictures/photo.jpg"))
    #expect(attributes.text(.fileName) == "photo.jpg")
    #expect(attributes.text(.displayName) == "photo.jpg")
    #expect(attributes.number(.fileSize) == Double(status.size))
    #expect(attributes.text(.contentType) == "public.jpeg")
    #expect(
      attributes[.contentTypeTree]?.compactMap(\.text)
        == ["public.jpeg", "public.image", "public.data", "public.content", "public.item"])
    #expect(attributes.first(.kind) == nil, "a kind per item costs bytes; the type says it")
    #expect(attributes.number(.ownerUserID) == Double(getuid()))
    #expect(attributes.text(.ownerName) == String(cString: getpwuid(getuid())!.pointee.pw_name))
    #expect(attributes.number(.fileMode) == Double(status.permissions))
    let modified = try #require(attributes.first(.contentModificationDate)?.date)
    #expect(abs(modified.timeIntervalSince1970 - Double(status.modificationNanos) / 1e9) < 0.001)
    let born = try #require(attributes.first(.contentCreationDate)?.date)
    #expect(abs(born.timeIntervalSince1970 - Double(status.birthNanos!) / 1e9) < 0.001)
    #expect(photo.fileStamp?.inode == status.inode)

    let script = try #require(try await harness.item("Projects/app/main.py"))
    #expect(script.attributes.text(.contentType) == "public.python-script")
    let folder = try #require(try await harness.item("Documents"))
    #expect(folder.attributes.text(.contentType) == "public.folder")
    #expect(folder.attributes.first(.fileSize) == nil)
    let root = try #require(try await harness.item(""))
    #expect(root.attributes.text(.contentType) == "public.folder")
  }

  @Test func aCrawlWhereNothingChangedReadsNothing() async throws {
    let harness = try CrawlHarness(try Self.home())
    let extraction = CountingExtraction()
    _ = try await harness.crawl(extraction: extraction)
    #expect(extraction.count == 4)
    let again = try await harness.crawl(extraction: extraction)
    #expect(again.unchanged == Self.homeItems.count)
    #expect(again.added + again.updated + again.moved + again.removed + again.failed == 0)
    #expect(again.reExtracted == 0)
    #expect(extraction.count == 4, "no file was extracted again")
  }

  @Test func touchedFilesAreUpdatedAndOnlyThey() async throws {
    let harness = try CrawlHarness(try Self.home())
    let extraction = CountingExtraction()
    _ = try await harness.crawl(extraction: extraction)
    try TemporaryTree.run(
      "/usr/bin/touch", ["-d", "2030-01-01", harness.tree.path("Documents/notes.txt")])
    let summary = try await harness.crawl(extraction: extraction)
    #expect(summary.updated == 1)
    #expect(summary.reExtracted == 1)
    #expect(summary.unchanged == Self.homeItems.count - 1)
    #expect(extraction.calls.withLock { $0.last } == harness.tree.path("Documents/notes.txt"))
    let item = try #require(try await harness.item("Documents/notes.txt"))
    #expect(
      item.attributes.first(.contentModificationDate)?.date?.timeIntervalSince1970 == 1_893_456_000)
  }

  @Test func aChmodRefreshesAttributesWithoutReadingTheFile() async throws {
    let harness = try CrawlHarness(try Self.home())
    let extraction = CountingExtraction()
    _ = try await harness.crawl(extraction: extraction)
    let title = try await harness.item("Documents/report.md")?.attributes.text(.title)
    harness.tree.chmod("Documents/report.md", 0o600)
    let summary = try await harness.crawl(extraction: extraction)
    #expect(summary.updated == 1)
    #expect(summary.reExtracted == 0)
    let item = try #require(try await harness.item("Documents/report.md"))
    #expect(item.attributes.number(.fileMode) == 0o600)
    #expect(item.attributes.text(.title) == title, "extracted attributes kept")
  }

  @Test func deletedFilesAndFoldersAreRemoved() async throws {
    let harness = try CrawlHarness(try Self.home())
    _ = try await harness.crawl()
    harness.tree.remove("Documents/notes.txt")
    harness.tree.remove("Projects")
    let summary = try await harness.crawl()
    #expect(summary.removed == 1 + 3, "a file, and a folder with two items below it")
    #expect(summary.updated == 2, "the two parent folders changed")
    #expect(
      try await harness.indexedPaths()
        == Self.homeItems.subtracting([
          "Documents/notes.txt", "Projects", "Projects/app", "Projects/app/main.py",
        ]))
  }

  @Test func movedFilesKeepTheirItemsWithoutExtraction() async throws {
    let harness = try CrawlHarness(try Self.home())
    let extraction = CountingExtraction()
    _ = try await harness.crawl(extraction: extraction)
    let title = try await harness.item("Documents/report.md")?.attributes.text(.title)
    #expect(title != nil)
    // Into a folder walked after Documents, into one walked before it, and a rename in place.
    harness.tree.move("Documents/report.md", "Pictures/report.md")
    harness.tree.move("Pictures/photo.jpg", "Documents/photo.jpg")
    harness.tree.move("Projects/app/main.py", "Projects/app/app.py")
    let summary = try await harness.crawl(extraction: extraction)
    #expect(summary.moved == 3, "\(summary)")
    #expect(summary.added == 0 && summary.removed == 0)
    #expect(summary.reExtracted == 0)
    #expect(extraction.count == 4)
    let moved = try #require(try await harness.item("Pictures/report.md"))
    #expect(moved.attributes.text(.title) == title)
    #expect(moved.attributes.text(.fileName) == "report.md")
    #expect(moved.attributes.text(.path) == harness.tree.path("Pictures/report.md"))
    #expect(try await harness.item("Documents/report.md") == nil)
    #expect(try await harness.item("Projects/app/app.py")?.attributes.text(.fileName) == "app.py")
    // And a crawl after that sees nothing left to do (the stamps were refreshed).
    let again = try await harness.crawl(extraction: extraction)
    #expect(again.unchanged == Self.homeItems.count)
    #expect(again.updated == 0 && again.reExtracted == 0)
  }

  @Test func aMovedFolderMovesEverythingBelowIt() async throws {
    let tree = try Self.home()
    for index in 0..<20 { tree.file("Documents/archive/2020/file\(index).txt", "old \(index)") }
    let harness = try CrawlHarness(tree)
    let extraction = CountingExtraction()
    _ = try await harness.crawl(extraction: extraction)
    let before = extraction.count
    tree.move("Documents/archive", "Projects/old-archive")
    let summary = try await harness.crawl(extraction: extraction)
    #expect(summary.moved == 1, "one folder move, not 22 file moves")
    #expect(summary.reExtracted == 0)
    #expect(extraction.count == before)
    #expect(summary.unchanged >= 21, "the files below the moved folder are unchanged")
    let paths = try await harness.indexedPaths()
    #expect(paths.contains("Projects/old-archive/2020/file7.txt"))
    #expect(!paths.contains { $0.hasPrefix("Documents/archive") })
    let file = try #require(try await harness.item("Projects/old-archive/2020/file7.txt"))
    #expect(file.attributes.text(.title)?.hasPrefix("extraction ") == true)
  }

  @Test func hardLinksAreTwoItemsNotAMove() async throws {
    let harness = try CrawlHarness(try Self.home())
    _ = try await harness.crawl()
    #expect(
      link(harness.tree.path("Documents/notes.txt"), harness.tree.path("Pictures/notes-link.txt"))
        == 0)
    let summary = try await harness.crawl()
    #expect(summary.added == 1)
    #expect(summary.moved == 0)
    #expect(try await harness.item("Documents/notes.txt") != nil)
    #expect(try await harness.item("Pictures/notes-link.txt") != nil)
  }

  @Test func hiddenFilesAreIndexedOnlyWhenAsked() async throws {
    let harness = try CrawlHarness(try Self.home())
    _ = try await harness.crawl(.init(roots: [harness.tree.root], includeHidden: true))
    let paths = try await harness.indexedPaths()
    #expect(paths.isSuperset(of: [".secret", ".secret/key", "Projects/app/.gitignore"]))
    #expect(!paths.contains { $0.hasPrefix("Projects/app/.git/") }, "a work tree's .git stays out")
    #expect(!paths.contains("Projects/app/build/out.o"))
    #expect(!paths.contains { $0.hasPrefix("Music") })
    // Back to the defaults: what is now out of scope is removed.
    let summary = try await harness.crawl()
    #expect(summary.removed == 3)
    #expect(try await harness.indexedPaths() == Self.homeItems)
  }

  @Test func symbolicLinksAreIndexedAsLinksAndNotFollowed() async throws {
    let tree = TemporaryTree("links")
    tree.file("real/a.txt", "a")
    tree.symlink("real/loop", to: "..")
    tree.symlink("to-real", to: "real")
    tree.symlink("dangling", to: "/nonexistent")
    let harness = try CrawlHarness(tree)
    let summary = try await harness.crawl()
    #expect(summary.failed == 0)
    #expect(
      try await harness.indexedPaths() == [
        "", "real", "real/a.txt", "real/loop", "to-real", "dangling",
      ])
    let link = try #require(try await harness.item("real/loop"))
    #expect(link.attributes.text(.contentType) == "public.symlink")
    #expect(link.attributes.text(.linkTarget) == "..")
    #expect(try await harness.item("dangling")?.attributes.text(.linkTarget) == "/nonexistent")
  }

  @Test func specialFilesAreCountedAsFailedAndNeverOpened() async throws {
    let tree = TemporaryTree("special")
    tree.fifo("pipe")
    tree.file("ok.txt", "fine")
    let harness = try CrawlHarness(tree)
    let summary = try await harness.crawl()
    #expect(summary.failed == 1)
    #expect(summary.errors.map(\.path) == [tree.path("pipe")])
    #expect(summary.errors.first?.reason.contains("fifo") == true)
    #expect(try await harness.indexedPaths() == ["", "ok.txt"])
  }

  @Test func namesThatAreNotUTF8AreIndexedFaithfully() async throws {
    let tree = TemporaryTree("bytes")
    let raw: [UInt8] = [0x72, 0xE9, 0x73, 0x75, 0x6D, 0xE9, 0x2E, 0x74, 0x78, 0x74]  // latin-1
    let path = tree.file(in: "docs", rawName: raw, "cv")
    let harness = try CrawlHarness(tree)
    let summary = try await harness.crawl()
    #expect(summary.added == 3)
    #expect(summary.failed == 0)
    let item = try #require(try await harness.index.item(withIdentifier: path))
    let stored = try #require(item.attributes.text(.path))
    #expect(FaithfulPath.encode(stored) == Array(tree.path("docs").utf8) + [0x2F] + raw)
    #expect(item.attributes.text(.contentType) == "public.plain-text")
    let again = try await harness.crawl()
    #expect(again.unchanged == 3)
  }

  @Test func extractorUpgradesReExtractExactlyTheirFiles() async throws {
    let harness = try CrawlHarness(try Self.home())
    _ = try await harness.crawl(extraction: CountingExtraction(version: 1))
    let upgraded = CountingExtraction(version: 2)
    let summary = try await harness.crawl(extraction: upgraded)
    #expect(upgraded.count == 4)
    #expect(summary.updated == 4)
    #expect(summary.unchanged == Self.homeItems.count - 4)
  }

  @Test func theRulesExtractorsFillItemsThroughThePipeline() async throws {
    let tree = TemporaryTree("extract")
    let corpus = CrawlHarness.packageRoot + "/../shared/corpus"
    for (from, to) in [("images/DSCN0010.jpg", "a.jpg"), ("audio/beets-full.mp3", "b.mp3")] {
      tree.write(to, Array(try Data(contentsOf: URL(fileURLWithPath: corpus + "/" + from))))
    }
    tree.file("c.txt", "read by the text extractor")
    let rules = try RuleSet.load(
      shippedDirectory: CrawlHarness.packageRoot + "/rules", userDirectory: nil)
    let extraction = RuleBasedExtraction(service: ExtractionService(rules: rules))
    let harness = try CrawlHarness(tree)
    let summary = try await harness.crawl(extraction: extraction)
    #expect(summary.added == 4)
    let photo = try #require(try await harness.item("a.jpg"))
    #expect(photo.attributes.number(.pixelWidth) == 640)
    #expect(photo.extractor == ExtractorStamp(name: "photo", version: PhotoExtractor.version))
    #expect(photo.attributes.text(.contentType) == "public.jpeg")
    let song = try #require(try await harness.item("b.mp3"))
    #expect(song.extractor?.name == "music")
    #expect(song.attributes.text(.album) != nil)
    #expect(try await harness.item("c.txt")?.extractor?.name == "text")
    let again = try await harness.crawl(extraction: extraction)
    #expect(again.unchanged == 4)
    #expect(again.reExtracted == 0)
  }

  @Test func aRescanOfSomeFoldersLooksAtThemAlone() async throws {
    let harness = try CrawlHarness(try Self.home())
    let tree = harness.tree
    _ = try await harness.crawl()
    try TemporaryTree.run("/usr/bin/touch", ["-d", "2030-01-01", tree.path("Documents/notes.txt")])
    try TemporaryTree.run("/usr/bin/touch", ["-d", "2030-01-01", tree.path("Pictures/photo.jpg")])
    tree.file("Documents/new.txt", "new")
    let pipeline = IndexingPipeline(
      index: harness.index, scope: try Scope(options: .init(roots: [tree.root])),
      contentTypes: CrawlHarness.contentTypes)
    let summary = try await pipeline.run(startingAt: [tree.path("Documents")])
    #expect(summary.added == 1)
    #expect(summary.updated == 2, "notes.txt, and the folder that gained a file")
    #expect(summary.folders == 1)
    let photo = try #require(try await harness.item("Pictures/photo.jpg"))
    #expect(
      photo.attributes.first(.contentModificationDate)?.date?.timeIntervalSince1970 != 1_893_456_000
    )

    // A folder that became out of scope, and one that is gone, lose their items.
    tree.file("Documents/.lumenignore")
    tree.remove("Projects")
    let again = try await pipeline.run(startingAt: [tree.path("Documents"), tree.path("Projects")])
    #expect(again.removed == 4 + 3)
    #expect(try await harness.indexedPaths() == ["", "Pictures", "Pictures/photo.jpg"])
  }

  @Test func aStoppedCrawlCommitsWholeBatchesAndTheNextResumes() async throws {
    let tree = TemporaryTree("stop")
    for folder in 0..<12 {
      for file in 0..<25 { tree.file("f\(folder)/file\(file).txt", "\(folder)-\(file)") }
    }
    let total = 1 + 12 + 12 * 25
    let harness = try CrawlHarness(tree)
    let stopper = PipelineBox()
    let first = CountingExtraction { number in
      if number == 100 { stopper.pipeline?.stop() }
    }
    let interrupted = try await harness.crawl(extraction: first, batchSize: 20, threads: 1) {
      stopper.pipeline = $0
    }
    #expect(interrupted.interrupted)
    let state = try #require(CrawlState.decode(try await harness.index.fetchLastClientState()))
    #expect(!state.complete)
    let committed = try await harness.indexedPaths()
    #expect(committed.count == state.items, "the client state names exactly what was committed")
    #expect(committed.count < total)
    let committedFiles = committed.filter { $0.hasSuffix(".txt") }.count

    let second = CountingExtraction()
    let resumed = try await harness.crawl(extraction: second, batchSize: 20)
    #expect(resumed.resumedInterruptedCrawl)
    #expect(!resumed.interrupted)
    #expect(second.count == 12 * 25 - committedFiles, "committed files are not read again")
    #expect(try await harness.indexedPaths().count == total)
    #expect(CrawlState.decode(try await harness.index.fetchLastClientState())?.complete == true)
  }

  /// What a kill at any moment would leave: never files under a folder whose own item is not
  /// committed (the next crawl would take the folder for new and read them all again). Checked
  /// from the crawl threads at every eighth file read, on a first crawl committing small
  /// batches, with two threads whose chunks reach the writer in either order.
  @Test func aFolderIsCommittedNoLaterThanAnythingBelowIt() async throws {
    let tree = TemporaryTree("order")
    var folders = [""]
    for top in 0..<6 {
      folders.append("t\(top)")
      for sub in 0..<6 {
        folders.append("t\(top)/s\(sub)")
        for file in 0..<8 { tree.file("t\(top)/s\(sub)/file\(file).txt", "\(top)\(sub)\(file)") }
      }
    }
    let harness = try CrawlHarness(tree)
    let index = harness.index
    let paths = folders.map { tree.path($0) }
    let findings = OrderFindings()
    let checking = CountingExtraction { number in
      guard number % 8 == 0 else { return }
      // Waited for here, on the crawl thread, so that the crawl goes on from what was seen;
      // not through `Blocking`, whose one thread the other tests' crawls share.
      findings.record(
        OrderFindings.wait {
          var orphans: [String] = []
          for folder in paths {
            // Below it first, then the folder itself: a folder committed in between is no
            // finding, one still missing after its files were seen is.
            guard try await !index.children(ofDirectory: folder).isEmpty else { continue }
            let parent = (folder as NSString).deletingLastPathComponent
            let name = (folder as NSString).lastPathComponent
            if try await !index.children(ofDirectory: parent).contains(where: { $0.name == name }) {
              orphans.append(folder)
            }
          }
          return orphans
        })
    }
    let summary = try await harness.crawl(extraction: checking, batchSize: 8, threads: 2)
    #expect(summary.added == folders.count + 6 * 6 * 8)
    #expect(findings.checks == 6 * 6)
    #expect(findings.orphans.isEmpty, "files committed before their folder: \(findings.orphans)")
  }
}

extension IndexingPipelineTests {
  /// A killed crawl can commit a folder's files before the folder's own item (the crawl
  /// threads' chunks reach the writer in any order). The crawl that resumes it must compare
  /// those files, not take the folder for new and read everything below it again.
  @Test func aResumedCrawlComparesTheFilesOfAFolderWhoseItemWasNotCommitted() async throws {
    let tree = TemporaryTree("orphans")
    for folder in 0..<3 {
      for file in 0..<10 { tree.file("f\(folder)/file\(file).txt", "\(folder)-\(file)") }
    }
    let harness = try CrawlHarness(tree)
    _ = try await harness.crawl(extraction: CountingExtraction())
    // What the kill leaves: f1's files without f1, and a crawl that did not complete.
    try await harness.index.deleteSearchableItems(withIdentifiers: [tree.path("f1")])
    #expect(try await !harness.indexedPaths().contains("f1"))
    #expect(try await harness.index.children(ofDirectory: tree.path("f1")).count == 10)
    let interrupted = CrawlState(started: 1, complete: false, items: 21, folders: 2)
    try await harness.index.indexFiles([], clientState: interrupted.encoded())

    let second = CountingExtraction()
    let resumed = try await harness.crawl(extraction: second)
    #expect(resumed.resumedInterruptedCrawl)
    #expect(second.count == 0, "read again: \(second.calls.withLock { $0 })")
    #expect(try await harness.indexedPaths().contains("f1"))
  }
}

/// Lets an extraction callback reach the pipeline it runs in.
final class PipelineBox: @unchecked Sendable {
  var pipeline: IndexingPipeline?
}

/// What the order check saw, from the crawl threads.
final class OrderFindings: Sendable {
  private let state = Mutex<(checks: Int, orphans: Set<String>)>((0, []))

  func record(_ orphans: [String]?) {
    state.withLock {
      $0.checks += 1
      $0.orphans.formUnion(orphans ?? ["(the index could not be read)"])
    }
  }

  var checks: Int { state.withLock { $0.checks } }

  /// The answer of `body`, waited for on the calling (crawl) thread; nil on error.
  static func wait(_ body: @escaping @Sendable () async throws -> [String]) -> [String]? {
    let done = DispatchSemaphore(value: 0)
    let answer = Mutex<[String]?>(nil)
    Task {
      let result = try? await body()
      answer.withLock { $0 = result }
      done.signal()
    }
    done.wait()
    return answer.withLock { $0 }
  }
  var orphans: Set<String> { state.withLock { $0.orphans } }
}
