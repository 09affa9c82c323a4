import Foundation
import Testing

@testable import LumenExtract

/// The shipped rules for documents, web pages and text name these extractors, and no other.
@Suite struct RuleFilesTests {
  static var rulesFolder: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("rules")
  }

  static let extractors: [any Extractor.Type] = [
    PDFExtractor.self, OpenDocumentExtractor.self, OOXMLExtractor.self, EPUBExtractor.self,
    HTMLExtractor.self, TextExtractor.self,
  ]

  @Test(arguments: ["20-pdf.rule", "30-office.rule", "40-html.rule", "90-text.rule"])
  func ruleNamesAnExtractorOfThisFamily(_ file: String) throws {
    let text = try String(
      contentsOf: Self.rulesFolder.appendingPathComponent(file), encoding: .utf8)
    let named = text.split(separator: "\n").filter { $0.hasPrefix("Extractor=") }
      .map { String($0.dropFirst("Extractor=".count)) }
    #expect(!named.isEmpty)
    for name in named {
      #expect(
        Self.extractors.contains { $0.name == name }, "\(file) names unknown extractor \(name)")
    }
  }

  @Test func everyExtractorHasARuleAndADistinctName() throws {
    let names = Self.extractors.map { $0.name }
    #expect(Set(names).count == names.count)
    let all = try ["20-pdf.rule", "30-office.rule", "40-html.rule", "90-text.rule"].map {
      try String(contentsOf: Self.rulesFolder.appendingPathComponent($0), encoding: .utf8)
    }.joined(separator: "\n")
    for name in names { #expect(all.contains("Extractor=\(name)\n")) }
    #expect(Self.extractors.allSatisfy { $0.version >= 1 })
  }
}
