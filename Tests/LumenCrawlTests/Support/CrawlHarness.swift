import Foundation
import LumenCrawl
import LumenExtract
import LumenModel
import LumenStore
import Synchronization

/// A tree to crawl and a real index file (outside the tree) to crawl it into.
final class CrawlHarness {
  let tree: TemporaryTree
  let storage = TemporaryTree("index")
  let index: SearchableIndex

  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
  static let contentTypes: ContentTypeRegistry = try! ContentTypeRules.registry(
    in: [RulesDirectory(path: packageRoot + "/rules", origin: .sourceTree)])

  init(_ tree: TemporaryTree, database: String? = nil) throws {
    self.tree = tree
    databasePath = database ?? storage.path("index.sqlite")
    index = try SearchableIndex(
      location: IndexLocation(path: databasePath),
      options: .init(contentTypes: Self.contentTypes))
  }

  let databasePath: String

  /// One crawl of the tree (or of `scope`).
  func crawl(
    _ scope: Scope.Options? = nil, extraction: any FileExtracting = SniffOnly(),
    batchSize: Int = 500, threads: Int = 2,
    prepare: (IndexingPipeline) -> Void = { _ in }
  ) async throws -> CrawlSummary {
    let pipeline = IndexingPipeline(
      index: index, scope: try Scope(options: scope ?? .init(roots: [tree.root])),
      contentTypes: Self.contentTypes,
      options: .init(
        batchSize: batchSize, walk: .init(threads: threads), extraction: extraction))
    prepare(pipeline)
    return try await pipeline.run()
  }

  func item(_ relative: String) async throws -> StoredItem? {
    try await index.item(withIdentifier: tree.path(relative))
  }

  /// Every indexed path under the root (relative; "" for the root), read back through the
  /// index's folder listings.
  func indexedPaths() async throws -> Set<String> {
    var result: Set<String> = []
    let parent = (tree.root as NSString).deletingLastPathComponent
    let rootName = (tree.root as NSString).lastPathComponent
    if try await index.children(ofDirectory: parent).contains(where: { $0.name == rootName }) {
      result.insert("")
    }
    var pending = [""]
    while let next = pending.popLast() {
      for child in try await index.children(ofDirectory: tree.path(next)) {
        let relative = next.isEmpty ? child.name : next + "/" + child.name
        result.insert(relative)
        if child.isDirectory { pending.append(relative) }
      }
    }
    return result
  }
}

/// An extractor stand-in that records each call and writes a title naming the call, so a test
/// sees whether a file was read again (the real extractors plug in through the same protocol).
final class CountingExtraction: FileExtracting {
  let version: Int
  let calls = Mutex<[String]>([])
  let onExtract: @Sendable (Int) -> Void

  init(version: Int = 1, onExtract: @escaping @Sendable (Int) -> Void = { _ in }) {
    self.version = version
    self.onExtract = onExtract
  }

  var count: Int { calls.withLock { $0.count } }

  func isCurrent(_ stamp: ExtractorStamp?) -> Bool {
    stamp == ExtractorStamp(name: "counting", version: version)
  }

  func extract(_ request: ExtractionRequest) -> FileExtraction? {
    let number = calls.withLock { calls -> Int in
      calls.append(request.path)
      return calls.count
    }
    onExtract(number)
    var attributes = AttributeSet()
    attributes.set(.text("extraction \(number) of \(request.contentType)"), for: .title)
    return FileExtraction(
      attributes: attributes, extractor: ExtractorStamp(name: "counting", version: version))
  }
}
