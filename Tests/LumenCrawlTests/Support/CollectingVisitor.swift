import LumenCrawl
import Synchronization

/// Gathers what a walk hands out, from any thread, for assertions.
final class WalkRecord: Sendable {
  struct Contents {
    var entries: [CrawlEntry] = []
    var listings: [String] = []
    var failures: [CrawlError] = []
    var excluded = 0
  }

  let contents = Mutex(Contents())

  var entries: [CrawlEntry] { contents.withLock { $0.entries } }
  var failures: [CrawlError] { contents.withLock { $0.failures } }
  var listedFolders: [String] { contents.withLock { $0.listings } }
  var excludedCount: Int { contents.withLock { $0.excluded } }

  /// Paths relative to `root`, sorted.
  func relativePaths(under root: String) -> [String] {
    entries.map { String($0.path.dropFirst(root.count + 1)) }.sorted()
  }

  /// Walks `scope` and records everything.
  static func walk(_ scope: Scope, options: DirectoryWalker.Options = .init()) async -> WalkRecord {
    let record = WalkRecord()
    let walker = DirectoryWalker(scope: scope, options: options)
    await walker.walk { _ in Collector(record) }
    return record
  }

  private final class Collector: DirectoryVisitor {
    let record: WalkRecord
    init(_ record: WalkRecord) { self.record = record }

    func visit(_ listing: DirectoryListing) {
      record.contents.withLock {
        $0.entries += listing.entries
        $0.listings.append(listing.directory.path)
        $0.failures += listing.failures
        $0.excluded += listing.excludedCount
      }
    }

    func failed(_ error: CrawlError, isRoot: Bool) {
      record.contents.withLock { $0.failures.append(error) }
    }

    func finish() {}
  }
}
