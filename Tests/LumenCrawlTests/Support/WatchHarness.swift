import Foundation
import Glibc
import Logging
import LumenExtract
import LumenModel
import LumenStore
import Testing

@testable import LumenCrawl

/// A `FolderWatcher` running in this process on a real temporary tree with a real index, and
/// what the tests ask of it: wait until it has caught up, and compare its index with a fresh
/// crawl of the same tree.
final class WatchHarness: @unchecked Sendable {
  let crawl: CrawlHarness
  let roots: [String]
  let extraction = CountingExtraction()
  let watcher: FolderWatcher
  private var running: Task<Void, any Error>?

  var tree: TemporaryTree { crawl.tree }
  var index: SearchableIndex { crawl.index }

  init(
    _ tree: TemporaryTree, roots: [String]? = nil,
    configure: (inout FolderWatcher.Options) -> Void = { _ in }
  ) throws {
    crawl = try CrawlHarness(tree)
    self.roots = roots ?? [tree.root]
    let pipeline = IndexingPipeline(
      index: crawl.index, scope: try Scope(options: .init(roots: self.roots)),
      contentTypes: CrawlHarness.contentTypes,
      options: .init(walk: .init(threads: 2), extraction: extraction))
    var options = FolderWatcher.Options()
    configure(&options)
    watcher = FolderWatcher(
      pipeline: pipeline, options: options,
      logger: Logger(label: "watch-test", factory: { _ in SwiftLogNoOpLogHandler() }))
  }

  /// Starts the watcher and waits for its first crawl to end.
  func start() async throws {
    let watcher = self.watcher
    running = Task { try await watcher.run() }
    try await Self.eventually("the first crawl ends") { watcher.activity.watching }
  }

  func stop() async throws {
    watcher.stop()
    try await running?.value
    running = nil
  }

  /// Waits until the watcher has read every event made so far and has nothing left to do.
  func settle(timeout: Duration = .seconds(20)) async throws {
    let start = watcher.activity.iteration
    try await Self.eventually("the watcher settles", timeout: timeout) {
      let activity = self.watcher.activity
      return activity.iteration > start + 1 && activity.settled
    }
  }

  /// The watcher's index holds exactly what a fresh crawl of the same roots gives: the same
  /// items with the same stamps (device, inode, size, times), extractor, type and, with
  /// `attributes`, every attribute but the test extractor's title (which counts its calls).
  func expectMatchesFreshCrawl(
    attributes: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let fresh = try CrawlHarness(tree)
    let pipeline = IndexingPipeline(
      index: fresh.index, scope: try Scope(options: .init(roots: roots)),
      contentTypes: CrawlHarness.contentTypes,
      options: .init(walk: .init(threads: 2), extraction: CountingExtraction()))
    _ = try await pipeline.run()
    let expected = try await Self.snapshot(fresh.index, roots: roots, attributes: attributes)
    let actual = try await Self.snapshot(index, roots: roots, attributes: attributes)
    let missing = Set(expected.keys).subtracting(actual.keys).sorted()
    let extra = Set(actual.keys).subtracting(expected.keys).sorted()
    #expect(
      missing.isEmpty, "not indexed by the watcher: \(missing.prefix(10))",
      sourceLocation: sourceLocation)
    #expect(
      extra.isEmpty, "indexed by the watcher only: \(extra.prefix(10))",
      sourceLocation: sourceLocation)
    let differing = expected.keys.filter { actual[$0] != nil && actual[$0] != expected[$0] }
      .sorted()
    #expect(
      differing.isEmpty,
      "differ: \(differing.prefix(5).map { "\($0): \(actual[$0]!) vs fresh \(expected[$0]!)" })",
      sourceLocation: sourceLocation)
  }

  struct Snapshot: Equatable, CustomStringConvertible {
    var entry: FileEntry
    var attributes: AttributeSet?
    var domain: String?
    var description: String { "\(entry) \(attributes.map { "\($0.values)" } ?? "")" }
  }

  /// Every indexed file item under the roots (the roots included), by path.
  static func snapshot(
    _ index: SearchableIndex, roots: [String], attributes: Bool
  ) async throws -> [String: Snapshot] {
    var result: [String: Snapshot] = [:]
    for root in roots {
      var pending: [(String, FileEntry)] = []
      if let own = try await index.fileEntry(atPath: root) { pending.append((root, own)) }
      while let (path, entry) = pending.popLast() {
        var snapshot = Snapshot(entry: entry)
        if attributes, let item = try await index.item(withIdentifier: path) {
          var values = item.attributes
          values.forget(.title)
          snapshot.attributes = values
          snapshot.domain = item.domainIdentifier
        }
        result[path] = snapshot
        guard entry.isDirectory else { continue }
        for child in try await index.children(ofDirectory: path) {
          pending.append((path + "/" + child.name, child))
        }
      }
    }
    return result
  }

  /// Polls `condition` every 20 ms until it holds; records an issue and throws on timeout.
  ///
  /// The timeout is counted in polls, not read off the clock: in a whole `swift test` run on
  /// two cores, synchronous tests (the CLI tests wait for `lumen` processes) can hold both
  /// threads of the cooperative pool for longer than any timeout, and then neither the watcher
  /// nor this loop runs. Every watcher test then failed at once, its clock run out while it
  /// never got a turn. Counting polls gives the watcher `timeout` worth of turns.
  static func eventually(
    _ what: String, timeout: Duration = .seconds(20),
    sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async throws -> Bool
  ) async throws {
    let interval = Duration.milliseconds(20)
    for _ in 0..<Int(timeout / interval) {
      if try await condition() { return }
      try await Task.sleep(for: interval)
    }
    if try await condition() { return }
    Issue.record("timed out waiting until \(what)", sourceLocation: sourceLocation)
    throw TimedOut()
  }

  struct TimedOut: Error {}

  /// Extractions of `relative` so far.
  func extractions(of relative: String) -> Int {
    let path = tree.path(relative)
    return extraction.calls.withLock { $0.filter { $0 == path }.count }
  }
}
