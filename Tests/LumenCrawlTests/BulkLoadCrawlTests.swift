import Foundation
import LumenExtract
import LumenStore
import Testing

@testable import LumenCrawl

/// Which crawls bulk load, and that a crawl that did leaves every index in place.
@Suite("Crawls that bulk load")
struct BulkLoadCrawlTests {
  static let incomplete = CrawlState(started: 1, complete: false, items: 40, folders: 2)
  static let complete = CrawlState(started: 1, complete: true, items: 40, folders: 2)

  @Test(
    arguments: [
      (nil, nil, true), (incomplete, nil, true), (complete, nil, false),
      (nil, ["/a"], false), (incomplete, ["/a"], false),
    ] as [(CrawlState?, [String]?, Bool)])
  func onlyAFullCrawlBeforeAnyCompletedOneBulkLoads(
    previous: CrawlState?, folders: [String]?, expected: Bool
  ) {
    #expect(IndexingPipeline.bulkLoads(previous: previous, folders: folders) == expected)
  }

  /// Full text waits for the end of a first crawl only when no file is extracted (the
  /// writer is that crawl's bottleneck); an extracting crawl keeps it current.
  @Test func onlyACrawlThatExtractsNothingDefersFullText() {
    #expect(IndexingPipeline.defersFullText(SniffOnly()))
    #expect(!IndexingPipeline.defersFullText(RuleBasedExtraction(service: WorkerSupport.service())))
    let noRules = ExtractionService(rules: RuleSet(rules: []))
    #expect(!noRules.hasExtractors)
    #expect(IndexingPipeline.defersFullText(RuleBasedExtraction(service: noRules)))
    #expect(!IndexingPipeline.defersFullText(CountingExtraction()))
  }

  @Test func aFirstCrawlEndsWithEveryIndexAndTheSameAnswers() async throws {
    let tree = CrawlProcessTests.manyFiles(folders: 3, files: 5)
    let harness = try CrawlHarness(tree)
    let first = try await harness.crawl(batchSize: 4)
    #expect(first.added == 1 + 3 + 15)
    #expect(try await harness.index.deferredIndexes().isEmpty)
    #expect(!harness.index.isBulkLoading)
    tree.file("d0/new.txt", "new")
    let second = try await harness.crawl(batchSize: 4)
    #expect(second.added == 1)
    #expect(try await harness.indexedPaths().count == 1 + 3 + 16)
  }

  @Test func aStoppedFirstCrawlStillCreatesItsIndexes() async throws {
    let tree = CrawlProcessTests.manyFiles(folders: 4, files: 10)
    let harness = try CrawlHarness(tree)
    let summary = try await harness.crawl(batchSize: 5, threads: 1) { pipeline in
      pipeline.stop()
    }
    #expect(summary.interrupted)
    #expect(try await harness.index.deferredIndexes().isEmpty)
    #expect(!harness.index.isBulkLoading)
  }
}
