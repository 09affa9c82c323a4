import Foundation
import LumenModel

/// PDF: metadata, page count and page size through qpdf; page text through poppler.
///
/// An encrypted file whose user password is empty gives everything. One that needs a password
/// gives its page count and security method (numbers and the /Encrypt dictionary are never
/// encrypted) and a recorded problem; it is never an error that would stop a crawl.
public struct PDFExtractor: Extractor {
  public static let name = "pdf"
  public static let version = 1

  public init() {}

  public func extract(_ request: ExtractionRequest) throws(ExtractionError) -> ExtractionOutcome {
    try BoundedFile.checkSize(request)
    let started = ContinuousClock.now
    let mapped = MappedFile(path: request.fileSystemPath)
    let document = try QPDFDocument(pathBytes: request.fileSystemPath, mapped: mapped)
    var outcome = ExtractionOutcome()
    guard let root = document.root else {
      throw ExtractionError(.malformed, "no document catalog (/Root)")
    }
    let attributes = Self.structure(document, root: root, into: &outcome)
    outcome.attributes = attributes
    switch document.openProblem {
    case .passwordRequired:
      outcome.problems.append(
        "encrypted: a user password is required; only the page count and security method were read")
      return outcome
    case .damaged(let detail):
      outcome.problems.append("damaged: \(detail); read what qpdf could recover")
    case nil:
      break
    }
    Self.metadata(PDFMetadata(document: document, root: root), into: &outcome.attributes)
    if request.limits.maxTextBytes > 0 {
      Self.text(request, mapped: mapped, started: started, into: &outcome)
    }
    return outcome
  }

  /// What is readable without the password: pages, geometry, encryption.
  private static func structure(
    _ document: QPDFDocument, root: PDFObject, into outcome: inout ExtractionOutcome
  ) -> AttributeSet {
    var attributes = AttributeSet()
    let pages = document.value(root, "/Pages")
    var count = pages.flatMap { document.value($0, "/Count") }.flatMap(document.integer)
    if count == nil || count! < 0, document.openProblem != .passwordRequired {
      count = document.walkedPageCount
    }
    if let count, count >= 0 { attributes.set(.number(Double(count)), for: .pageCount) }
    if let pages, let geometry = PDFPageGeometry(document: document, pages: pages) {
      attributes.set(.number(geometry.width), for: .pageWidth)
      attributes.set(.number(geometry.height), for: .pageHeight)
    }
    attributes.set(
      .text(
        document.isEncrypted
          ? PDFSecurity.method(document: document) ?? "Encrypted" : PDFSecurity.none),
      for: .securityMethod)
    return attributes
  }

  private static func metadata(_ metadata: PDFMetadata, into attributes: inout AttributeSet) {
    if let title = metadata.title { attributes.set(.text(title), for: .title) }
    if !metadata.authors.isEmpty {
      attributes.set(metadata.authors.map(AttributeValue.text), for: .authors)
    }
    if let subject = metadata.subject { attributes.set(.text(subject), for: .subject) }
    if !metadata.keywords.isEmpty {
      attributes.set(metadata.keywords.map(AttributeValue.text), for: .keywords)
    }
    if let creator = metadata.creator { attributes.set(.text(creator), for: .creator) }
    if let producer = metadata.producer {
      attributes.set([.text(producer)], for: .encodingApplications)
    }
    if let created = metadata.created { attributes.set(.date(created), for: .contentCreationDate) }
    if let modified = metadata.modified {
      attributes.set(.date(modified), for: .contentModificationDate)
    }
  }

  /// Page text, page by page, until the text budget or the rule's `MaxPages=` is spent or half
  /// the time budget is gone (the pipeline kills a worker at the full budget; stopping early
  /// keeps what was read). Pages are the real cost: poppler lays out each page in a few
  /// milliseconds whatever its length, so a long book spends seconds before a byte budget
  /// would stop it.
  private static func text(
    _ request: ExtractionRequest, mapped: MappedFile?, started: ContinuousClock.Instant,
    into outcome: inout ExtractionOutcome
  ) {
    guard let poppler = PopplerDocument(pathBytes: request.fileSystemPath, mapped: mapped) else {
      outcome.problems.append("text: poppler could not open the document")
      return
    }
    var budget = TextBudget(limit: request.limits.maxTextBytes)
    let deadline = started + .milliseconds(Int64(request.limits.timeoutSeconds * 500))
    let pageCount = poppler.pageCount
    let pagesRead = min(pageCount, request.limits.maxPages ?? pageCount)
    for page in 0..<pagesRead where !budget.isFull {
      if ContinuousClock.now > deadline {
        outcome.problems.append("text: stopped after \(page) of \(pageCount) pages (time limit)")
        break
      }
      guard let text = poppler.text(ofPage: page) else { continue }
      budget.separate(with: "\n\n")
      budget.append(text)
    }
    if let text = budget.result { outcome.attributes.set(.text(text), for: .textContent) }
  }
}
