import Foundation
import LumenCrawl
import LumenExtract
import LumenModel
import Testing

/// A file no extractor read is stamped with the rules in force, so a rule added later for its
/// type (an upgrade, or a user's rule file) reaches it, and only it, on the next crawl.
@Suite struct RuleChangeTests {
  @Test func aNewRuleReExtractsExactlyTheFilesOfItsType() async throws {
    let tree = TemporaryTree("rule-change")
    let corpus = CrawlHarness.packageRoot + "/../shared/corpus"
    tree.write(
      "a.jpg", Array(try Data(contentsOf: URL(fileURLWithPath: corpus + "/images/DSCN0010.jpg"))))
    tree.file("notes.txt", "the walrus and the carpenter")
    tree.file("other.txt", "were walking close at hand")
    let photoOnly = try RuleSet.parse(
      "[Photos]\nExtractor=photo\nMimeTypes=image/jpeg\n", path: "10-photos.rule")
    let withText = try RuleSet.parse(
      "[Text]\nExtractor=text\nMimeTypes=text/plain\n", path: "90-text.rule")
    let harness = try CrawlHarness(tree)

    let first = try await harness.crawl(
      extraction: RuleBasedExtraction(service: ExtractionService(rules: RuleSet(rules: photoOnly))))
    #expect(first.failed == 0)
    #expect(try await harness.item("notes.txt")?.attributes.text(.textContent) == nil)

    let same = try await harness.crawl(
      extraction: RuleBasedExtraction(service: ExtractionService(rules: RuleSet(rules: photoOnly))))
    #expect(same.reExtracted == 0)

    let second = try await harness.crawl(
      extraction: RuleBasedExtraction(
        service: ExtractionService(rules: RuleSet(rules: photoOnly + withText))))
    #expect(second.reExtracted == 2, "the two text files, not the photo")
    #expect(
      try await harness.item("notes.txt")?.attributes.text(.textContent)
        == "the walrus and the carpenter")
    #expect(try await harness.item("a.jpg")?.attributes.number(.pixelWidth) == 640)
  }
}
