import Foundation
import LumenModel
import Testing

@testable import LumenExtract

/// OpenDocument, OOXML and EPUB against the corpus's verbatim dumps of meta.xml, core.xml/app.xml
/// and the OPF metadata (expected/documents.jsonl), field by field.
@Suite struct OfficeExtractorTests {
  static let odf = Corpus.files(in: "documents", extensions: ["odt", "ods", "odp"])
  static let ooxml = Corpus.files(in: "documents", extensions: ["docx", "xlsx", "pptx"])
  static let epub = Corpus.files(in: "documents", extensions: ["epub"])
  static var oracle: [String: [String: Any]] { Corpus.expected("documents") }

  /// Accepted disagreements with the dumps, and why Lumen differs.
  static let allowed: [String: [String: String]] = [:]

  static func extract(_ file: String, limits: ExtractionLimits = ExtractionLimits()) throws
    -> ExtractionOutcome
  {
    let request = Corpus.request(file, mimeType: "application/zip", limits: limits)
    switch (file as NSString).pathExtension.lowercased() {
    case "odt", "ods", "odp": return try OpenDocumentExtractor().extract(request)
    case "epub": return try EPUBExtractor().extract(request)
    default: return try OOXMLExtractor().extract(request)
    }
  }

  static func compare(_ file: String, into agreement: inout Agreement) throws {
    let expected = oracle[file] ?? [:]
    let attributes = try extract(file).attributes
    func texts(_ key: AttributeKey) -> [String]? { attributes[key]?.compactMap(\.text) }
    func record(_ field: String, _ result: (String?, String?, Bool)) {
      agreement.record(file: file, field: field, expected: result.0, actual: result.1, agrees: result.2)
    }
    func strings(_ key: String) -> [String]? {
      (expected[key] as? [String]) ?? (expected[key] as? String).map { [$0] }
    }
    let encrypted = (expected["Encrypted"] as? Bool).map { $0 ? "yes" : "no" }
    let lumenEncrypted = attributes.text(.securityMethod) == nil ? "no" : "yes"
    record("Encrypted→securityMethod", (encrypted, lumenEncrypted, encrypted == lumenEncrypted))
    let type = (expected["FileType"] as? String) ?? ""
    switch type {
    case "ODT", "ODS", "ODP":
      record("Title→title", Compare.text(expected["Title"], attributes.text(.title)))
      record(
        "InitialCreator|Author→authors",
        Compare.list(strings("InitialCreator") ?? strings("Author"), texts(.authors)))
      record("Subject→subject", Compare.text(expected["Subject"], attributes.text(.subject)))
      record(
        "Description→contentDescription",
        Compare.text(expected["Description"], attributes.text(.contentDescription)))
      record("Keywords→keywords", Compare.list(strings("Keywords"), texts(.keywords)))
      record("Language→languages", Compare.list(strings("Language"), texts(.languages)))
      record("Application→creator", Compare.text(expected["Application"], attributes.text(.creator)))
      record(
        "CreateDate→contentCreationDate",
        Compare.date(expected["CreateDate"], attributes.first(.contentCreationDate)?.date))
      record(
        "ModifyDate→contentModificationDate",
        Compare.date(expected["ModifyDate"], attributes.first(.contentModificationDate)?.date))
      if type != "ODP" {
        record("Pages→pageCount", Compare.number(expected["Pages"], attributes.number(.pageCount)))
      }
    case "DOCX", "XLSX", "PPTX":
      record("Title→title", Compare.text(expected["Title"], attributes.text(.title)))
      record(
        "Author→authors (split on ;)",
        Compare.list(
          strings("Author")?.flatMap { $0.split(separator: ";").map(String.init) }, texts(.authors)))
      record("Subject→subject", Compare.text(expected["Subject"], attributes.text(.subject)))
      record(
        "Description→contentDescription",
        Compare.text(expected["Description"], attributes.text(.contentDescription)))
      record(
        "Keywords→keywords (split on , ;)",
        Compare.list(
          (expected["Keywords"] as? String).map(DocumentProperties.splitKeywords), texts(.keywords)))
      record("Language→languages", Compare.list(strings("Language"), texts(.languages)))
      record("Application→creator", Compare.text(expected["Application"], attributes.text(.creator)))
      record("Company→organizations", Compare.list(strings("Company"), texts(.organizations)))
      record(
        "CreateDate→contentCreationDate",
        Compare.date(expected["CreateDate"], attributes.first(.contentCreationDate)?.date))
      record(
        "ModifyDate→contentModificationDate",
        Compare.date(expected["ModifyDate"], attributes.first(.contentModificationDate)?.date))
      record(
        "Pages|Slides→pageCount",
        Compare.number(expected["Pages"] ?? expected["Slides"], attributes.number(.pageCount)))
    case "EPUB":
      record("Title[main]→title", Compare.text(strings("Title")?.first, attributes.text(.title)))
      record("Author→authors", Compare.list(strings("Author"), texts(.authors)))
      record("Contributor→contributors", Compare.list(strings("Contributor"), texts(.contributors)))
      record("Publisher→publishers", Compare.list(strings("Publisher"), texts(.publishers)))
      record("Identifier[unique]→identifier", Compare.text(strings("Identifier")?.first, attributes.text(.identifier)))
      record("Language→languages", Compare.list(strings("Language"), texts(.languages)))
      record("Subject→keywords", Compare.list(strings("Subject"), texts(.keywords)))
      record(
        "Description[0]→contentDescription",
        Compare.text(strings("Description")?.first, attributes.text(.contentDescription)))
      record("Rights[0]→copyright", Compare.text(strings("Rights")?.first, attributes.text(.copyright)))
      record(
        "Date[0]→contentCreationDate",
        Compare.date(strings("Date")?.first, attributes.first(.contentCreationDate)?.date))
    default:
      Issue.record("unexpected FileType \(type) for \(file)")
    }
  }

  @Test(arguments: odf + ooxml + epub)
  func agreesWithTheMetadataDump(_ file: String) throws {
    var agreement = Agreement(allowed: Self.allowed)
    try Self.compare(file, into: &agreement)
    for disagreement in agreement.unexplained { Issue.record("\(disagreement)") }
  }

  @Test func agreementTable() throws {
    #expect(Self.odf.count == 8 && Self.ooxml.count == 12 && Self.epub.count == 6)
    for (title, files) in [("OpenDocument", Self.odf), ("OOXML", Self.ooxml), ("EPUB", Self.epub)] {
      var agreement = Agreement(allowed: Self.allowed)
      for file in files { try Self.compare(file, into: &agreement) }
      print(agreement.table(title: "\(title) vs verbatim metadata dump (\(files.count) files)"))
      #expect(agreement.unexplained.isEmpty, "\(agreement.unexplained)")
      #expect(agreement.staleAllowances.isEmpty, "\(agreement.staleAllowances)")
    }
  }
}
