import Foundation
import LumenExtract
import LumenQuery
import Synchronization
import Testing

@testable import LumenCrawl
@testable import LumenStore

/// The records a crawl holds in flight are bounded by the text they carry, not only by their
/// number: a folder of large text files must not put 500 bodies of a megabyte in memory.
@Suite("Text held in flight")
struct TextBudgetTests {
  @Test func aChannelFullOfWeightBlocksTheSenderUntilSomethingIsTaken() {
    let channel = BoundedChannel<Int>(capacity: 10, weightLimit: 100)
    #expect(channel.send(1, weight: 60))
    let sent = DispatchSemaphore(value: 0)
    Thread {
      channel.send(2, weight: 60)
      sent.signal()
    }.start()
    #expect(sent.wait(timeout: .now() + 0.2) == .timedOut, "60 + 60 is over the limit")
    #expect(channel.receiveWeighed()?.weight == 60)
    #expect(sent.wait(timeout: .now() + 5) == .success)
    #expect(channel.receive() == 2)
    // One element is always let in, however heavy.
    #expect(channel.send(3, weight: 1_000))
    #expect(channel.receive() == 3)
  }

  @Test func aBatchHoldingMuchTextIsCommittedBeforeItHas500Items() async throws {
    // About 1 MB of text each (the text rule reads at most 1 MiB): 30 MB in all, against the
    // same files with a line each. Without the budget both crawls commit alike.
    let large = try await transactions(body: String(repeating: "lorem ipsum dolor ", count: 55_000))
    let small = try await transactions(body: "lorem ipsum dolor ")
    #expect(large > small, "\(large) transactions against \(small)")
  }

  /// Transactions of a first crawl of 30 text files holding `body`, after checking that each
  /// file's text is searchable.
  private func transactions(body: String) async throws -> Int {
    let tree = TemporaryTree("text-budget")
    for number in 0..<30 { tree.file("notes/note-\(number).txt", body + "marker\(number)") }
    let rules = try RuleSet.load(
      shippedDirectory: CrawlHarness.packageRoot + "/rules", userDirectory: nil)
    let harness = try CrawlHarness(tree)
    let summary = try await harness.crawl(
      extraction: RuleBasedExtraction(service: ExtractionService(rules: rules)))
    #expect(summary.added == 32)
    let found = try await harness.index.search(
      try QueryParser(registry: harness.index.registry).parse("marker29"))
    #expect(found.map(\.identifier) == [tree.path("notes/note-29.txt")])
    return harness.index.commits.withLock { $0 }
  }
}
