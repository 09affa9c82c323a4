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
      agreement.record(
        file: file, field: field, expected: result.0, actual: result.1, agrees: result.2)
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
      record(
        "Application→creator", Compare.text(expected["Application"], attributes.text(.creator)))
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
          strings("Author")?.flatMap { $0.split(separator: ";").map(String.init) }, texts(.authors))
      )
      record("Subject→subject", Compare.text(expected["Subject"], attributes.text(.subject)))
      record(
        "Description→contentDescription",
        Compare.text(expected["Description"], attributes.text(.contentDescription)))
      record(
        "Keywords→keywords (split on , ;)",
        Compare.list(
          (expected["Keywords"] as? String).map(DocumentProperties.splitKeywords), texts(.keywords))
      )
      record("Language→languages", Compare.list(strings("Language"), texts(.languages)))
      record(
        "Application→creator", Compare.text(expected["Application"], attributes.text(.creator)))
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
      record(
        "Identifier[unique]→identifier",
        Compare.text(strings("Identifier")?.first, attributes.text(.identifier)))
      record("Language→languages", Compare.list(strings("Language"), texts(.languages)))
      record("Subject→keywords", Compare.list(strings("Subject"), texts(.keywords)))
      record(
        "Description[0]→contentDescription",
        Compare.text(strings("Description")?.first, attributes.text(.contentDescription)))
      record(
        "Rights[0]→copyright", Compare.text(strings("Rights")?.first, attributes.text(.copyright)))
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

  @Test(arguments: [
    ("documents/testWORD.docx", "This is a sample Microsoft Word Document."),
    ("documents/exiftool-OOXML.docx", "Exiftool is astounding."),
    ("documents/testPPT.pptx", "Black Panther"),
    ("documents/testEXCEL.xlsx", "Sample Excel Worksheet - Numbers and their Squares"),
    ("documents/testEXCEL.strict.xlsx", "I'm in bold blue, on a yellow background"),
    ("documents/LibreOfficeWriter_odt_1.3.odt", "This is an example document"),
    ("documents/LibreOfficeImpress_odp_1.3.odp", "An example Impress file"),
    ("documents/testODT_svgTitleInStyledSpan.odt", "學生簽章"),
    ("documents/idpf-wasteland.epub", "April is the cruellest month, breeding"),
    ("documents/testEPUB.epub", "This is the text for chapter Two"),
  ])
  func textContentHoldsTheDocumentText(_ file: String, _ phrase: String) throws {
    let text = try #require(try Self.extract(file).attributes.text(.textContent))
    #expect(text.contains(phrase))
  }

  /// Slides in OpenDocument presentations are draw:page elements of content.xml (counted for
  /// these two files with `unzip -p FILE content.xml | grep -o '<draw:page ' | wc -l`: 2 and 1).
  @Test(arguments: [
    ("documents/LibreOfficeImpress_odp_1.3.odp", 2), ("documents/testMasterFooter.odp", 1),
  ])
  func presentationSlidesArePages(_ file: String, _ slides: Int) throws {
    #expect(try Self.extract(file).attributes.number(.pageCount) == Double(slides))
  }

  @Test func spreadsheetsHaveNoPageCount() throws {
    for file in [
      "documents/testEXCEL.xlsx", "documents/LibreOfficeCalc_ods_1.3.ods",
      "documents/exiftool-OpenDoc.ods",
    ] {
      #expect(try Self.extract(file).attributes.number(.pageCount) == nil, "\(file)")
    }
  }

  @Test(arguments: [3, 100, 4096])
  func textStopsAtTheBudget(_ limit: Int) throws {
    for file in [
      "documents/testWORD.docx", "documents/idpf-wasteland.epub", "documents/testODFwithOOo3.odt",
    ] {
      let outcome = try Self.extract(file, limits: ExtractionLimits(maxTextBytes: limit))
      let text = try #require(outcome.attributes.text(.textContent))
      #expect(text.utf8.count <= limit)
    }
  }

  @Test func encryptedFilesAreReportedAndKeepWhatIsReadable() throws {
    let odt = try Self.extract("documents/testODTEncrypted.odt")
    #expect(odt.attributes.text(.securityMethod) == "Password Encrypted")
    #expect(odt.problems.contains { $0.contains("meta.xml") && $0.hasPrefix("encrypted") })
    let docx = try Self.extract("documents/testWORD_protected_passtika.docx")
    #expect(docx.attributes.text(.securityMethod) == "Password Encrypted")
    #expect(docx.problems.contains { $0.hasPrefix("encrypted: an OLE2 container") })
  }

  /// Well-formed files produce no problems: a problem list that is never empty would hide
  /// real ones.
  @Test(arguments: odf + ooxml + epub)
  func readableFilesHaveNoProblems(_ file: String) throws {
    guard Self.oracle[file]?["Encrypted"] as? Bool != true else { return }
    #expect(try Self.extract(file).problems == [])
  }

  @Test func agreementTable() throws {
    #expect(Self.odf.count == 8 && Self.ooxml.count == 12 && Self.epub.count == 6)
    for (title, files) in [("OpenDocument", Self.odf), ("OOXML", Self.ooxml), ("EPUB", Self.epub)] {
      var agreement = Agreement(allowed: Self.allowed)
      for file in files { try Self.compare(file, into: &agreement) }
      print(agreement.table(title: "\(title) vs verbatim metadata dump (\(files.count) files)"))
      // The dumps are the files' own metadata, not another tool's reading of it: nothing
      // short of full agreement is acceptable.
      #expect(agreement.fields(below: 1).isEmpty, "\(agreement.fields(below: 1))")
      #expect(agreement.unexplained.isEmpty, "\(agreement.unexplained)")
      #expect(agreement.staleAllowances.isEmpty, "\(agreement.staleAllowances)")
    }
  }
}
