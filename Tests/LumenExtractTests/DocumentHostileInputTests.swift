import Foundation
import LumenModel
import Testing

@testable import LumenExtract

/// Broken and hostile files, generated here: each must end quickly with partial results or a
/// clean ExtractionError, never a crash, a hang, a read outside the limits or a leaked secret.
/// The time bounds are generous safety nets against hangs, not speed claims.
@Suite struct DocumentHostileInputTests {
  static let odfMeta = """
    <?xml version="1.0" encoding="UTF-8"?>
    <office:document-meta xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
      xmlns:dc="http://purl.org/dc/elements/1.1/"
      xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" office:version="1.2">
    <office:meta><dc:title>Survivor</dc:title></office:meta></office:document-meta>
    """

  static let odtMime = Array("application/vnd.oasis.opendocument.text".utf8)

  static func request(_ path: String, _ mime: String, limits: ExtractionLimits = ExtractionLimits())
    -> ExtractionRequest
  {
    ExtractionRequest(path: path, mimeType: mime, contentType: "public.data", limits: limits)
  }

  /// Runs `body`, failing the test if it takes longer than `seconds`.
  static func withinSeconds<T>(_ seconds: Double, _ body: () throws -> T) rethrows -> T {
    let start = ContinuousClock.now
    let result = try body()
    let elapsed = ContinuousClock.now - start
    #expect(elapsed < .seconds(seconds), "took \(elapsed)")
    return result
  }

  // MARK: PDF

  @Test(arguments: [0.5, 0.9, 0.98])
  func truncatedPDFGivesPartialResultsOrACleanError(_ fraction: Double) throws {
    let directory = try TemporaryDirectory()
    let original = [UInt8](
      try Data(contentsOf: URL(fileURLWithPath: Corpus.path("documents/pdflatex-4-pages.pdf"))))
    let path = try directory.write(
      "cut.pdf", Array(original.prefix(Int(Double(original.count) * fraction))))
    do {
      let outcome = try Self.withinSeconds(10) {
        try PDFExtractor().extract(Self.request(path, "application/pdf"))
      }
      // qpdf rebuilds the cross-reference table by scanning what is left.
      #expect(outcome.problems.contains { $0.hasPrefix("damaged") })
    } catch let error as ExtractionError {
      #expect(error.kind == .malformed)
    }
  }

  @Test func brokenXrefOffsetIsRecovered() throws {
    let directory = try TemporaryDirectory()
    var bytes = [UInt8](
      try Data(contentsOf: URL(fileURLWithPath: Corpus.path("documents/testPDF.pdf"))))
    let marker = Array("startxref".utf8)
    let position = try #require(
      (0...(bytes.count - marker.count)).last { Array(bytes[$0..<$0 + marker.count]) == marker })
    // Point startxref into the middle of nowhere.
    var digits = position + marker.count
    while digits < bytes.count, !(48...57).contains(bytes[digits]) { digits += 1 }
    while digits < bytes.count, (48...57).contains(bytes[digits]) {
      bytes[digits] = UInt8(ascii: "7")
      digits += 1
    }
    let path = try directory.write("xref.pdf", bytes)
    let outcome = try PDFExtractor().extract(Self.request(path, "application/pdf"))
    #expect(outcome.problems.contains { $0.hasPrefix("damaged") })
    #expect(outcome.attributes.number(.pageCount) == 1)
    #expect(outcome.attributes.text(.title) == "Apache Tika - Apache Tika")
  }

  static let notPDFs: [String: [UInt8]] = [
    "empty": [], "header only": Array("%PDF-1.4\ngarbage".utf8),
    "0xFF noise": [UInt8](repeating: 0xFF, count: 5000),
  ]

  @Test(arguments: notPDFs.keys.sorted())
  func notAPDFIsACleanError(_ name: String) throws {
    let bytes = Self.notPDFs[name]!
    let directory = try TemporaryDirectory()
    let path = try directory.write("bad.pdf", bytes)
    #expect(throws: ExtractionError.self) {
      try PDFExtractor().extract(Self.request(path, "application/pdf"))
    }
  }

  // MARK: Zip packages

  @Test func zipBombIsRefusedByItsDeclaredSize() throws {
    let directory = try TemporaryDirectory()
    let path = directory.url.appendingPathComponent("bomb.odt").path
    try ZipBuilder.make(
      at: path,
      [
        ("mimetype", .bytes(Self.odtMime)), ("meta.xml", .bytes(Array(Self.odfMeta.utf8))),
        ("content.xml", .zeros(32 << 20)),
      ])
    let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    #expect(size < 200_000)
    let limits = ExtractionLimits(maxBytes: 1 << 20)
    let outcome = try Self.withinSeconds(10) {
      try OpenDocumentExtractor().extract(
        Self.request(path, "application/vnd.oasis.opendocument.text", limits: limits))
    }
    #expect(outcome.attributes.text(.title) == "Survivor")
    #expect(
      outcome.problems.contains { $0.contains("content.xml inflates to more than 1048576 bytes") })
  }

  @Test func zipBombWithALyingHeaderIsStoppedWhileInflating() throws {
    let directory = try TemporaryDirectory()
    let path = directory.url.appendingPathComponent("liar.docx").path
    try ZipBuilder.make(at: path, [("word/document.xml", .zeros(32 << 20))])
    try ZipBuilder.lieAboutSizes(at: path, size: 1000)
    let limits = ExtractionLimits(maxBytes: 1 << 20)
    let outcome = try Self.withinSeconds(10) {
      try OOXMLExtractor().extract(Self.request(path, "application/zip", limits: limits))
    }
    #expect(outcome.problems.contains { $0.contains("word/document.xml inflates to more than") })
    #expect(outcome.attributes.text(.textContent) == nil)
  }

  @Test func pathTraversalNamesAreNeverPaths() throws {
    let directory = try TemporaryDirectory()
    let victim = directory.url.appendingPathComponent("escaped.txt").path
    let path = directory.url.appendingPathComponent("inner/evil.epub").path
    try FileManager.default.createDirectory(
      atPath: directory.url.appendingPathComponent("inner").path, withIntermediateDirectories: true)
    let container = """
      <?xml version="1.0"?><container xmlns="urn:oasis:names:tc:opendocument:xmlns:container" version="1.0">
      <rootfiles><rootfile full-path="../../../../../etc/passwd" media-type="application/oebps-package+xml"/>
      </rootfiles></container>
      """
    try ZipBuilder.make(
      at: path,
      [
        ("mimetype", .bytes(Array("application/epub+zip".utf8))),
        ("META-INF/container.xml", .bytes(Array(container.utf8))),
        ("../escaped.txt", .bytes(Array("owned".utf8))),
        ("/etc/passwd", .bytes(Array("not really".utf8))),
      ])
    let outcome = try EPUBExtractor().extract(Self.request(path, "application/epub+zip"))
    #expect(!FileManager.default.fileExists(atPath: victim))
    #expect(outcome.attributes.text(.textContent) == nil)
    #expect(outcome.problems.contains { $0.contains("no readable package document") })
    #expect(PackagePath.resolve("../../../../etc/passwd", from: "OEBPS/") == "etc/passwd")
  }

  @Test func tooManyEntriesAreCapped() throws {
    let directory = try TemporaryDirectory()
    let path = directory.url.appendingPathComponent("many.xlsx").path
    let entries = (0..<(ZipPackage.maxEntries + 5)).map {
      ("e\($0).xml", ZipBuilder.Content.bytes([]))
    }
    try ZipBuilder.make(at: path, entries)
    let outcome = try OOXMLExtractor().extract(Self.request(path, "application/zip"))
    #expect(
      outcome.problems.contains { $0.contains("more than \(ZipPackage.maxEntries) zip entries") })
  }

  @Test func notAZipIsACleanError() throws {
    let directory = try TemporaryDirectory()
    let path = try directory.write("fake.odt", "just text")
    #expect(throws: ExtractionError.self) {
      try OpenDocumentExtractor().extract(
        Self.request(path, "application/vnd.oasis.opendocument.text"))
    }
  }

  // MARK: XML

  static let billionLaughs = """
    <?xml version="1.0"?>
    <!DOCTYPE office:document-meta [
    <!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
    <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">
    <!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;"><!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;">
    <!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;"><!ENTITY i "&h;&h;&h;&h;&h;&h;&h;&h;&h;&h;">
    <!ENTITY j "&i;&i;&i;&i;&i;&i;&i;&i;&i;&i;">]>
    <office:document-meta xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
      xmlns:dc="http://purl.org/dc/elements/1.1/"><office:meta>
    <dc:title>&j;</dc:title><dc:subject attr="&j;">&j;&j;&j;</dc:subject></office:meta></office:document-meta>
    """

  static let externalEntity = """
    <?xml version="1.0"?>
    <!DOCTYPE office:document-meta [<!ENTITY secret SYSTEM "file:///etc/passwd">
    <!ENTITY % remote SYSTEM "http://127.0.0.1:9/evil.dtd"> %remote;]>
    <office:document-meta xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
      xmlns:dc="http://purl.org/dc/elements/1.1/"><office:meta>
    <dc:title>before &secret; after</dc:title></office:meta></office:document-meta>
    """

  @Test(arguments: ["billion laughs", "external entity"])
  func entitiesAreNeverExpandedOrLoaded(_ name: String) throws {
    let meta = name == "billion laughs" ? Self.billionLaughs : Self.externalEntity
    let directory = try TemporaryDirectory()
    let path = directory.url.appendingPathComponent("entities.odt").path
    try ZipBuilder.make(
      at: path, [("mimetype", .bytes(Self.odtMime)), ("meta.xml", .bytes(Array(meta.utf8)))])
    let outcome = try Self.withinSeconds(5) {
      try OpenDocumentExtractor().extract(
        Self.request(path, "application/vnd.oasis.opendocument.text"))
    }
    let passwd = (try? String(contentsOfFile: "/etc/passwd", encoding: .utf8)) ?? "root:x:0:0"
    let firstLine = String(passwd.prefix { $0 != "\n" })
    for values in outcome.attributes.values.values {
      for value in values {
        #expect(!value.description.contains(firstLine))
        #expect(!value.description.contains("hahahahaha"))
        #expect(value.description.utf8.count < 10_000)
      }
    }
    let tree = try #require(MarkupParser.parseXML(Array(meta.utf8)))
    #expect(tree.nodes.count < 100)
  }

  // MARK: HTML

  @Test func htmlNested100000DeepDoesNotOverflowTheStack() throws {
    let directory = try TemporaryDirectory()
    let depth = 100_000
    let page =
      "<html><head><title>Deep</title></head><body><p>before</p>"
      + String(repeating: "<div itemscope itemprop=\"x\">", count: depth) + "deep"
      + String(repeating: "</div>", count: depth) + "<p>after</p></body></html>"
    let path = try directory.write("deep.html", page)
    let outcome = try Self.withinSeconds(20) {
      try HTMLExtractor().extract(Self.request(path, "text/html"))
    }
    // libxml2 stops building the tree 256 levels down; what came before is kept.
    #expect(outcome.attributes.text(.title) == "Deep")
    #expect(outcome.attributes.text(.textContent)?.hasPrefix("before") == true)
  }

  @Test func itemrefCyclesEnd() throws {
    let page = """
      <div itemscope itemtype="http://schema.org/Thing" id="a" itemref="b"><span itemprop="name">A</span></div>
      <div id="b" itemprop="related" itemscope itemtype="http://schema.org/Thing" itemref="a">
      <span itemprop="name">B</span></div>
      """
    let data = Self.withinSeconds(5) { HTMLExtractor.structuredData(in: Array(page.utf8)) }
    #expect(!data.microdata.isEmpty)
  }

  @Test func deeplyNestedJSONLDIsAProblemNotACrash() {
    let depth = 100_000
    let page =
      "<script type=\"application/ld+json\">" + String(repeating: "[", count: depth)
      + String(repeating: "]", count: depth) + "</script>"
    let data = Self.withinSeconds(10) { HTMLExtractor.structuredData(in: Array(page.utf8)) }
    #expect(data.jsonLD.isEmpty)
    #expect(!data.problems.isEmpty)
  }

  @Test func manyPropertiesAreCappedNotAllIndexed() throws {
    let directory = try TemporaryDirectory()
    let properties = (0..<2000).map { "<meta itemprop=\"p\($0)\" content=\"v\">" }.joined()
    let path = try directory.write(
      "wide.html", "<div itemscope itemtype=\"http://schema.org/Thing\">\(properties)</div>")
    let outcome = try HTMLExtractor().extract(Self.request(path, "text/html"))
    let custom = outcome.attributes.keys.values.filter(\.isCustom)
    #expect(custom.count == SchemaOrgMapper.maxKeys)
    #expect(
      outcome.problems.contains { $0.contains("more than \(SchemaOrgMapper.maxKeys) properties") })
  }

  // MARK: Text

  static let badText: [String: [UInt8]] = [
    "mixed invalid": [0xC3, 0x28, 0xA0, 0xA1, 0xFF, 0xFE, 0x00, 0x41],
    "continuation bytes": [UInt8](repeating: 0x80, count: 10_000),
    "cut emoji": [0xF0, 0x9F, 0x98],
  ]

  @Test(arguments: badText.keys.sorted())
  func invalidUTF8TextIsDecodedNotFatal(_ name: String) throws {
    let bytes = Self.badText[name]!
    let directory = try TemporaryDirectory()
    let path = try directory.write("bad.txt", bytes)
    let outcome = try TextExtractor().extract(Self.request(path, "text/plain"))
    if let text = outcome.attributes.text(.textContent) {
      #expect(!text.unicodeScalars.contains { $0.value == 0 })
    }
  }

  @Test func aFIFOIsNotWaitedOn() throws {
    let directory = try TemporaryDirectory()
    let path = directory.url.appendingPathComponent("pipe").path
    #expect(mkfifo(path, 0o600) == 0)
    #expect(throws: ExtractionError.self) {
      try Self.withinSeconds(5) { try TextExtractor().extract(Self.request(path, "text/plain")) }
    }
  }
}
