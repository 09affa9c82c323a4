import Foundation

/// A PDF's document metadata: the Info dictionary first (what pdfinfo and most tools show),
/// the XMP packet for whatever Info leaves out.
struct PDFMetadata: Equatable {
  var title: String?
  var authors: [String] = []
  var subject: String?
  var keywords: [String] = []
  var creator: String?
  var producer: String?
  var created: Date?
  var modified: Date?

  /// XMP streams are refused past these sizes (qpdf inflates without a limit).
  static let maxXMPEncodedBytes = 1 << 20
  static let maxXMPDecodedBytes = 8 << 20

  init(document: QPDFDocument, root: PDFObject) {
    let info = document.trailer.flatMap { document.value($0, "/Info") }
    func string(_ key: String) -> String? {
      guard let info, let value = document.value(info, key).flatMap(document.text) else {
        return nil
      }
      let trimmed = value.trimmingWhitespace()
      return trimmed.isEmpty ? nil : trimmed
    }
    title = string("/Title")
    subject = string("/Subject")
    creator = string("/Creator")
    producer = string("/Producer")
    created = string("/CreationDate").flatMap { PDFDate.parse($0) }
    modified = string("/ModDate").flatMap { PDFDate.parse($0) }
    keywords = string("/Keywords").map(Self.splitKeywords) ?? []
    authors = string("/Author").map(Self.splitAuthors) ?? []

    guard
      let stream = document.value(root, "/Metadata"),
      let bytes = document.streamData(
        stream, maxEncodedBytes: Self.maxXMPEncodedBytes, maxDecodedBytes: Self.maxXMPDecodedBytes),
      let xmp = XMPPacket(bytes: bytes)
    else { return }
    title = title ?? xmp.title
    subject = subject ?? xmp.description
    creator = creator ?? xmp.creatorTool
    producer = producer ?? xmp.producer
    created = created ?? xmp.createDate.flatMap { PDFDate.parse($0) }
    modified = modified ?? xmp.modifyDate.flatMap { PDFDate.parse($0) }
    if keywords.isEmpty { keywords = xmp.keywords.map(Self.splitKeywords) ?? xmp.subjects }
    // Info has room for one Author string; XMP's dc:creator is a real list. When the list
    // starts with the Info author (testPDF_twoAuthors.pdf) it is the fuller truth.
    if authors.isEmpty
      || (xmp.creators.count > authors.count && xmp.creators.first == authors.first)
    {
      authors = xmp.creators
    }
  }

  /// Keywords are one string in Info; people separate them with commas or semicolons.
  static func splitKeywords(_ text: String) -> [String] {
    text.split(whereSeparator: { $0 == "," || $0 == ";" })
      .map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
  }

  /// An Author string is one name unless semicolons separate several (as Word writes them);
  /// commas stay, since "Allison, Timothy B." is one person.
  static func splitAuthors(_ text: String) -> [String] {
    text.split(separator: ";").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
  }
}
