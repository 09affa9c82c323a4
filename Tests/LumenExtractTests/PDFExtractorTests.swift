import Foundation
import LumenModel
import Testing

@testable import LumenExtract

/// PDF against pdfinfo (poppler 22.12), field by field.
@Suite struct PDFExtractorTests {
  static let files = Corpus.files(in: "documents", extensions: ["pdf"])
  static var oracle: [String: [String: Any]] { Corpus.expected("documents") }

  /// Disagreements with pdfinfo that are accepted, with the reason Lumen differs. pdfinfo
  /// prints only the Info dictionary; Lumen falls back to the XMP packet for what Info lacks.
  /// `xmpFallbacksAgreeWithExiftool` checks each XMP value below against exiftool's XMP tags.
  static let allowed: [String: [String: String]] = [
    "documents/exiftool-PDF.pdf": [
      "Title→title": "Info has no /Title; XMP dc:title is 'Test IPTC picture' (exiftool agrees)",
      "Author→authors": "Info has no /Author; XMP dc:creator is 'Phil Harvey' (exiftool agrees)",
      "Subject→subject": "Info has no /Subject; XMP dc:description (exiftool agrees)",
      "Keywords→keywords": "Info has no /Keywords; XMP dc:subject bag (exiftool agrees)",
    ],
    "documents/testPDFTripleLangTitle.pdf": [
      "Title→title": "no Info dictionary at all; XMP dc:title x-default is 'Hello World'"
    ],
    "documents/testPDF_twoAuthors.pdf": [
      "Author→authors":
        "Info /Author holds the first of XMP dc:creator's two names; Lumen keeps both"
    ],
    "documents/testPDF_diffTitles.pdf": [
      "Author→authors":
        "Info /Author holds the first of XMP dc:creator's two names; Lumen keeps both"
    ],
    "documents/libreoffice-writer-password.pdf": [
      "Pages→pageCount":
        "pdfinfo refuses to open without the user password; /Pages /Count is not encrypted, and "
        + "`pdfinfo -upw openpassword` also says 1 page"
    ],
  ]

  static func extract(_ file: String, limits: ExtractionLimits = ExtractionLimits()) throws
    -> ExtractionOutcome
  {
    try PDFExtractor().extract(Corpus.request(file, mimeType: "application/pdf", limits: limits))
  }

  static func compare(_ file: String, into agreement: inout Agreement) throws {
    let expected = oracle[file] ?? [:]
    let outcome = try extract(file)
    let attributes = outcome.attributes
    func texts(_ key: AttributeKey) -> [String]? { attributes[key]?.compactMap(\.text) }
    func record(_ field: String, _ result: (String?, String?, Bool)) {
      agreement.record(
        file: file, field: field, expected: result.0, actual: result.1, agrees: result.2)
    }
    if expected["Unreadable"] == nil {
      record("Title→title", Compare.text(expected["Title"], attributes.text(.title)))
      record(
        "Author→authors",
        Compare.list((expected["Author"] as? String).map { [$0] }, texts(.authors)))
      record("Subject→subject", Compare.text(expected["Subject"], attributes.text(.subject)))
      record(
        "Keywords→keywords",
        Compare.list(
          (expected["Keywords"] as? String).map(PDFMetadata.splitKeywords), texts(.keywords)))
      record("Creator→creator", Compare.text(expected["Creator"], attributes.text(.creator)))
      record(
        "Producer→encodingApplications",
        Compare.list((expected["Producer"] as? String).map { [$0] }, texts(.encodingApplications)))
      record(
        "CreationDate→contentCreationDate",
        Compare.date(expected["CreationDate"], attributes.first(.contentCreationDate)?.date))
      record(
        "ModDate→contentModificationDate",
        Compare.date(expected["ModDate"], attributes.first(.contentModificationDate)?.date))
      record(
        "PageWidth→pageWidth", Compare.number(expected["PageWidth"], attributes.number(.pageWidth)))
      record(
        "PageHeight→pageHeight",
        Compare.number(expected["PageHeight"], attributes.number(.pageHeight)))
    }
    record("Pages→pageCount", Compare.number(expected["Pages"], attributes.number(.pageCount)))
    let encrypted = (expected["Encrypted"] as? Bool).map { $0 ? "yes" : "no" }
    let method = attributes.text(.securityMethod)
    let lumenEncrypted = method.map { $0 == PDFSecurity.none ? "no" : "yes" }
    record("Encrypted→securityMethod", (encrypted, lumenEncrypted, encrypted == lumenEncrypted))
  }

  @Test(arguments: files)
  func agreesWithPdfinfo(_ file: String) throws {
    var agreement = Agreement(allowed: Self.allowed)
    try Self.compare(file, into: &agreement)
    for disagreement in agreement.unexplained { Issue.record("\(disagreement)") }
  }

  /// The second opinion on what Lumen reads from XMP where pdfinfo is silent: exiftool's
  /// `XMP-dc` tags, recorded in the oracle file under `exiftool`.
  @Test(arguments: [
    ("documents/exiftool-PDF.pdf", "XMP-dc:Title", AttributeKey.title),
    ("documents/exiftool-PDF.pdf", "XMP-dc:Creator", AttributeKey.authors),
    ("documents/exiftool-PDF.pdf", "XMP-dc:Description", AttributeKey.subject),
    ("documents/exiftool-PDF.pdf", "XMP-dc:Subject", AttributeKey.keywords),
    ("documents/testPDF_twoAuthors.pdf", "XMP-dc:Creator", AttributeKey.authors),
  ])
  func xmpFallbacksAgreeWithExiftool(_ file: String, _ tag: String, _ key: AttributeKey) throws {
    let exiftool = try #require(Self.oracle[file]?["exiftool"] as? [String: Any])
    let expected = (exiftool[tag] as? [String]) ?? [(exiftool[tag] as? String) ?? "?"]
    let actual = try Self.extract(file).attributes[key]?.compactMap(\.text)
    #expect(actual == expected)
  }

  @Test func xmpOnlyTitleIsTheDefaultLanguage() throws {
    let outcome = try Self.extract("documents/testPDFTripleLangTitle.pdf")
    #expect(outcome.attributes.text(.title) == "Hello World")
  }

  @Test func emptyUserPasswordGivesEverything() throws {
    let outcome = try Self.extract("documents/testPDF_protected.pdf")
    #expect(outcome.problems.isEmpty)
    #expect(outcome.attributes.text(.securityMethod) == "Standard RC4 128-bit")
    #expect(outcome.attributes.text(.title)?.hasPrefix("Rethinking the Financial Network") == true)
    #expect(
      outcome.attributes.text(.textContent)?.contains("RETHINKING THE FINANCIAL NETWORK") == true)
  }

  @Test func userPasswordGivesStructureAndAProblem() throws {
    let outcome = try Self.extract("documents/libreoffice-writer-password.pdf")
    #expect(outcome.attributes.number(.pageCount) == 1)
    #expect(outcome.attributes.text(.securityMethod)?.hasPrefix("Standard") == true)
    #expect(outcome.attributes.text(.title) == nil)
    #expect(outcome.attributes.text(.textContent) == nil)
    #expect(outcome.problems.contains { $0.contains("password") })
  }

  /// qpdf and poppler read the same document from a mapping as from the path (the path is
  /// what a file too large to map within the worker's address-space cap falls back to).
  @Test(arguments: files)
  func aMappedFileReadsAsThePathDoes(_ file: String) throws {
    let path = Array(Corpus.path(file).utf8)
    let mapped = try #require(MappedFile(path: path))
    #expect(
      mapped.bytes.count
        == (try FileManager.default.attributesOfItem(atPath: Corpus.path(file))[.size] as? Int))
    let fromMemory = try? QPDFDocument(pathBytes: path, mapped: mapped)
    let fromPath = try? QPDFDocument(pathBytes: path, mapped: nil)
    #expect((fromMemory == nil) == (fromPath == nil))
    if let fromMemory, let fromPath {
      #expect(fromMemory.openProblem == fromPath.openProblem)
      #expect(fromMemory.walkedPageCount == fromPath.walkedPageCount)
      if let memoryRoot = fromMemory.root, let pathRoot = fromPath.root {
        #expect(
          PDFMetadata(document: fromMemory, root: memoryRoot)
            == PDFMetadata(document: fromPath, root: pathRoot))
      }
    }
    let popplerFromMemory = PopplerDocument(pathBytes: path, mapped: mapped)
    let popplerFromPath = PopplerDocument(pathBytes: path, mapped: nil)
    #expect((popplerFromMemory == nil) == (popplerFromPath == nil))
    if let popplerFromMemory, let popplerFromPath {
      #expect(popplerFromMemory.pageCount == popplerFromPath.pageCount)
      for page in 0..<min(popplerFromPath.pageCount, 3) {
        #expect(popplerFromMemory.text(ofPage: page) == popplerFromPath.text(ofPage: page))
      }
    }
  }

  @Test func anEmptyOrMissingFileIsNotMapped() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "lumen-mapped-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let empty = folder.appendingPathComponent("empty.pdf")
    FileManager.default.createFile(atPath: empty.path, contents: Data())
    #expect(MappedFile(path: Array(empty.path.utf8)) == nil)
    #expect(MappedFile(path: Array(folder.appendingPathComponent("missing.pdf").path.utf8)) == nil)
    #expect(MappedFile(path: Array(folder.path.utf8)) == nil)
    // The extractor still reports the empty file as a PDF it cannot read, not a crash.
    #expect(throws: ExtractionError.self) {
      try PDFExtractor().extract(
        ExtractionRequest(
          path: empty.path, mimeType: "application/pdf", contentType: "public.data",
          limits: ExtractionLimits()))
    }
  }

  @Test func textIsReadInPageOrder() throws {
    let text = try #require(
      try Self.extract("documents/pdflatex-4-pages.pdf").attributes.text(.textContent))
    #expect(text.hasPrefix("Hello, here is some text without a meaning."))
    let crazy = try Self.extract("documents/crazyones-pdfa.pdf").attributes.text(.textContent)
    #expect(crazy?.hasPrefix("The Crazy Ones") == true)
  }

  @Test(arguments: [1, 7, 100, 1000])
  func textStopsAtTheBudgetOnACharacterBoundary(_ limit: Int) throws {
    let limits = ExtractionLimits(maxTextBytes: limit)
    let outcome = try Self.extract("documents/GeoTopo-komprimiert.pdf", limits: limits)
    let text = try #require(outcome.attributes.text(.textContent))
    #expect(text.utf8.count <= limit)
    #expect(text.utf8.count >= limit / 2)
    #expect(outcome.attributes.number(.pageCount) == 117)
  }

  /// `MaxPages=` stops the text after that many pages, from the first, in page order; the page
  /// count and metadata still cover the whole document.
  @Test func textStopsAtMaxPages() throws {
    let file = "documents/GeoTopo-komprimiert.pdf"
    let whole = try #require(try Self.extract(file).attributes.text(.textContent))
    var previous = 0
    for pages in [1, 3, 20] {
      let outcome = try Self.extract(file, limits: ExtractionLimits(maxPages: pages))
      let text = try #require(outcome.attributes.text(.textContent))
      #expect(whole.hasPrefix(text), "\(pages) pages")
      #expect(text.utf8.count > previous, "\(pages) pages")
      #expect(text.utf8.count < whole.utf8.count, "\(pages) pages")
      #expect(outcome.attributes.number(.pageCount) == 117)
      #expect(outcome.attributes.text(.title) == "Geometrie und Topologie")
      #expect(outcome.problems == [])
      previous = text.utf8.count
    }
    // More pages than the document has: all of it.
    let all = try Self.extract(
      "documents/pdflatex-4-pages.pdf", limits: ExtractionLimits(maxPages: 4))
    let unlimited = try Self.extract("documents/pdflatex-4-pages.pdf")
    #expect(all.attributes.text(.textContent) == unlimited.attributes.text(.textContent))
    let three = try Self.extract(
      "documents/pdflatex-4-pages.pdf", limits: ExtractionLimits(maxPages: 3))
    #expect(three.attributes.text(.textContent) != unlimited.attributes.text(.textContent))
  }

  @Test func noTextBudgetMeansNoPoppler() throws {
    let outcome = try Self.extract(
      "documents/pdflatex-4-pages.pdf", limits: ExtractionLimits(maxTextBytes: 0))
    #expect(outcome.attributes.text(.textContent) == nil)
    #expect(outcome.attributes.number(.pageCount) == 4)
  }

  @Test func fileOverMaxBytesIsRefused() throws {
    #expect(throws: ExtractionError.self) {
      try Self.extract(
        "documents/GeoTopo-komprimiert.pdf", limits: ExtractionLimits(maxBytes: 1000))
    }
  }

  @Test(arguments: [
    ("D:20220403193102+02'00'", "2022-04-03T17:31:02Z"),
    ("D:20230623063933Z", "2023-06-23T06:39:33Z"),
    ("D:20050718143045-04'00'", "2005-07-18T18:30:45Z"),
    ("D:20140304215645+01'00", "2014-03-04T20:56:45Z"),
    ("D:2009", "2009-01-01T00:00:00Z"),
    ("2014-03-04T09:05:57+01:00", "2014-03-04T08:05:57Z"),
  ])
  func pdfDates(_ raw: String, _ iso: String) throws {
    let utc = TimeZone(secondsFromGMT: 0)!
    #expect(PDFDate.parse(raw, timeZone: utc) == ISO8601Dates.parse(iso))
  }

  @Test(arguments: ["D:", "D:2022130101", "garbage", ""])
  func badPdfDatesAreNil(_ raw: String) {
    #expect(PDFDate.parse(raw) == nil)
  }

  /// Well-formed files produce no problems (only the password-protected one does).
  @Test(arguments: files.filter { !$0.contains("password") })
  func readableFilesHaveNoProblems(_ file: String) throws {
    // A generous time budget: text extraction stops at half the budget, and this machine may
    // be busy; the time stop itself is tested below.
    #expect(try Self.extract(file, limits: ExtractionLimits(timeoutSeconds: 600)).problems == [])
  }

  @Test func textStopsAtHalfTheTimeBudgetAndSaysSo() throws {
    let outcome = try Self.extract(
      "documents/GeoTopo-komprimiert.pdf", limits: ExtractionLimits(timeoutSeconds: 0.000_001))
    #expect(outcome.problems.contains { $0.contains("(time limit)") })
    #expect(outcome.attributes.number(.pageCount) == 117)
    #expect(outcome.attributes.text(.title) == "Geometrie und Topologie")
  }

  @Test func agreementTable() throws {
    #expect(Self.files.count == 16)
    var agreement = Agreement(allowed: Self.allowed)
    for file in Self.files { try Self.compare(file, into: &agreement) }
    print(agreement.table(title: "PDF vs pdfinfo (\(Self.files.count) files)"))
    // Every miss is explained in `allowed`; the floor keeps the allow-list from swallowing a
    // field. Keywords (1 of 2) and Author (4 of 7) are the lowest: files where pdfinfo shows
    // less than the file holds (an XMP-only keyword list, XMP's second author).
    #expect(agreement.fields(below: 0.5).isEmpty, "\(agreement.fields(below: 0.5))")
    // Structure, applications and dates come from places pdfinfo reads too: no excuse.
    for field in [
      "PageWidth→pageWidth", "PageHeight→pageHeight", "Producer→encodingApplications",
      "Creator→creator", "CreationDate→contentCreationDate", "ModDate→contentModificationDate",
      "Encrypted→securityMethod",
    ] {
      #expect(agreement.ratio(field) == 1, "\(field)")
    }
    #expect(agreement.unexplained.isEmpty, "\(agreement.unexplained)")
    #expect(agreement.staleAllowances.isEmpty, "\(agreement.staleAllowances)")
  }
}
