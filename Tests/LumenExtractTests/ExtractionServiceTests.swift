import Foundation
import LumenModel
import Testing

@testable import LumenExtract

@Suite struct ExtractionServiceTests {
  static let service: ExtractionService = {
    // The shipped rules are data the tests read; loading them must work.
    ExtractionService(
      rules: (try? RuleSet.load(shippedDirectory: TestPaths.rules, userDirectory: nil))
        ?? RuleSet(rules: []))
  }()

  static func corpus(_ name: String) -> String {
    TestPaths.corpus.appendingPathComponent(name).path
  }

  @Test func photoIsChosenByTheShippedRule() throws {
    let result = Self.service.extract(
      ExtractionJob(
        path: Self.corpus("images/Canon_40D.jpg"), mimeType: "image/jpeg",
        contentType: "public.jpeg"))
    let outcome = try #require(result.outcome)
    #expect(outcome.attributes.text(.acquisitionModel) == "Canon EOS 40D")
    #expect(result.rule?.source.fileName == "10-photos.rule")
    #expect(result.extractor == ExtractorIdentity(name: "photo", version: PhotoExtractor.version))
    #expect(result.contentType == "public.jpeg")
    #expect(result.failures.isEmpty)
    #expect(result.candidates.count == 1)
  }

  @Test func musicIsChosenByTheShippedRule() throws {
    let result = Self.service.extract(
      ExtractionJob(path: Self.corpus("audio/beets-full.flac"), mimeType: "audio/flac"))
    #expect(result.outcome?.attributes.text(.composer) == "the composer")
    #expect(result.extractor?.name == "music")
    // No declared type came with the job: the rule's ContentType= applies.
    #expect(result.contentType == "public.audio")
  }

  /// The first rule's extractor fails on the file; the next rule's succeeds.
  @Test func laterRulesAreFallbacks() throws {
    let text = """
      [First]
      Extractor=music
      MimeTypes=image/jpeg
      Priority=10
      [Second]
      Extractor=photo
      MimeTypes=image/*
      """
    let service = ExtractionService(rules: RuleSet(rules: try RuleSet.parse(text, path: "t.rule")))
    let result = service.extract(
      ExtractionJob(path: Self.corpus("images/Canon_40D.jpg"), mimeType: "image/jpeg"))
    #expect(result.candidates.map(\.line) == [1, 5])
    #expect(result.failures.map(\.extractor.name) == ["music"])
    #expect(result.failures.first?.rule.line == 1)
    #expect(result.rule?.source.line == 5)
    #expect(result.outcome?.attributes.number(.pixelWidth) == 100)
  }

  @Test func noMatchingRuleGivesNothing() {
    let result = Self.service.extract(
      ExtractionJob(path: "/bin/sh", mimeType: "application/x-executable"))
    #expect(result.outcome == nil)
    #expect(result.candidates.isEmpty)
    #expect(result.failures.isEmpty)
    #expect(!result.succeeded)
  }

  @Test func everyFailureIsReported() throws {
    let directory = try TestPaths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = try ImageFixtures.write(Array("not an image".utf8), "fake.jpg", in: directory)
    let result = Self.service.extract(ExtractionJob(path: path, mimeType: "image/jpeg"))
    #expect(result.outcome == nil)
    #expect(result.failures.count == 1)
    #expect(result.failures.first?.error.kind == .unsupported)
    #expect(result.contentType == "public.image")
  }

  @Test func ruleLimitsReachTheExtractor() throws {
    let text = "[Tiny]\nExtractor=photo\nMimeTypes=image/jpeg\nMaxBytes=64\n"
    let service = ExtractionService(rules: RuleSet(rules: try RuleSet.parse(text, path: "t.rule")))
    let result = service.extract(
      ExtractionJob(path: Self.corpus("images/Canon_40D.jpg"), mimeType: "image/jpeg"))
    // 64 bytes hold neither the EXIF nor the frame header.
    #expect(result.outcome == nil)
    #expect(result.failures.first?.error.kind == .malformed)
  }

  @Test func resultSurvivesJSON() throws {
    let result = Self.service.extract(
      ExtractionJob(path: Self.corpus("images/exiftool-GoPro.jpg"), mimeType: "image/jpeg"))
    let music = Self.service.extract(
      ExtractionJob(path: Self.corpus("audio/beets-full.m4a"), mimeType: "audio/x-m4a"))
    for original in [result, music] {
      let data = try JSONEncoder().encode(original)
      let decoded = try JSONDecoder().decode(ExtractionResult.self, from: data)
      #expect(decoded == original)
    }
    #expect(result.outcome?.attributes.first(.flashOn) != nil)
    #expect(music.outcome?.attributes[.codecs] == [.text("aac")])
    // Built-in attributes travel by name; custom ones (schema.org's dotted keys) with their
    // whole registry row, and both come back equal.
    let page = Self.service.extract(
      ExtractionJob(path: Self.corpus("html/edsu-example-nested.html"), mimeType: "text/html"))
    let custom = try #require(page.outcome?.attributes.orderedKeys.first { $0.isCustom })
    let json = try #require(String(data: try JSONEncoder().encode(page), encoding: .utf8))
    #expect(try JSONDecoder().decode(ExtractionResult.self, from: Data(json.utf8)) == page)
    #expect(json.contains("\"name\":\"title\""))
    #expect(json.contains(custom.name))
    #expect(
      json.components(separatedBy: "\"isCustom\"").count - 1
        == page.outcome?.attributes.orderedKeys.filter(\.isCustom).count)
    let job = ExtractionJob(path: "/a/b.jpg", mimeType: "image/jpeg", contentType: nil)
    #expect(try JSONDecoder().decode(ExtractionJob.self, from: JSONEncoder().encode(job)) == job)
  }

  @Test func catalogListsExtractorsByName() {
    let catalog = ExtractorCatalog.standard
    #expect(
      catalog.names == ["photo", "music", "pdf", "opendocument", "ooxml", "epub", "html", "text"])
    #expect(catalog.version(of: "photo") == PhotoExtractor.version)
    #expect(catalog.type(named: "music") == MusicExtractor.self)
    #expect(catalog.type(named: "nope") == nil)
    #expect(ExtractorCatalog([PhotoExtractor.self, PhotoExtractor.self]).names == ["photo"])
  }
}
