import LumenModel

/// OpenDocument text, spreadsheets and presentations (.odt .ods .odp and their templates):
/// meta.xml for metadata, content.xml for text and slide count.
public struct OpenDocumentExtractor: Extractor {
  public static let name = "opendocument"
  public static let version = 1

  static let office = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
  static let meta = "urn:oasis:names:tc:opendocument:xmlns:meta:1.0"
  static let dc = "http://purl.org/dc/elements/1.1/"
  static let draw = "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
  static let manifest = "urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"

  public init() {}

  public func extract(_ request: ExtractionRequest) throws(ExtractionError) -> ExtractionOutcome {
    let package = try ZipPackage(request)
    var outcome = ExtractionOutcome()
    outcome.problems = package.openingProblems
    let encrypted = Self.encryptedParts(package, problems: &outcome.problems)
    if !encrypted.isEmpty {
      outcome.attributes.set(.text("Password Encrypted"), for: .securityMethod)
      outcome.problems.append(
        "encrypted: \(encrypted.sorted().joined(separator: ", ")) need a password")
    }
    let kind = Self.kind(package, request: request)
    var properties = DocumentProperties()
    if !encrypted.contains("meta.xml"),
      let tree = package.xml("meta.xml", problems: &outcome.problems)
    {
      Self.readMeta(tree, kind: kind, into: &properties)
    }
    if !encrypted.contains("content.xml"),
      let tree = package.xml("content.xml", problems: &outcome.problems),
      let root = tree.root
    {
      if kind == .presentation {
        properties.pageCount = tree.descendants(of: root, named: "page", namespace: Self.draw).count
      }
      if let body = tree.firstDescendant(of: root, named: "body", namespace: Self.office) {
        var budget = TextBudget(limit: request.limits.maxTextBytes)
        Self.text.collect(tree, from: body, into: &budget)
        if let text = budget.result { outcome.attributes.set(.text(text), for: .textContent) }
      }
    }
    properties.write(into: &outcome.attributes)
    return outcome
  }

  enum Kind { case text, spreadsheet, presentation, other }

  /// The document kind from the `mimetype` entry, else from the request's MIME type.
  static func kind(_ package: ZipPackage, request: ExtractionRequest) -> Kind {
    let declared = (try? package.read("mimetype", limit: 256)).map {
      String(decoding: $0, as: UTF8.self)
    }
    let mime = (declared ?? request.mimeType).trimmingWhitespace()
    if mime.contains("opendocument.text") { return .text }
    if mime.contains("opendocument.spreadsheet") { return .spreadsheet }
    if mime.contains("opendocument.presentation") { return .presentation }
    return .other
  }

  /// Parts the manifest says are encrypted (`manifest:encryption-data`).
  static func encryptedParts(_ package: ZipPackage, problems: inout [String]) -> Set<String> {
    guard let tree = package.xml("META-INF/manifest.xml", problems: &problems), let root = tree.root
    else { return [] }
    var parts: Set<String> = []
    for entry in tree.descendants(of: root, named: "file-entry", namespace: manifest)
    where tree.firstDescendant(of: entry, named: "encryption-data", namespace: manifest) != nil {
      if let path = tree.attribute("full-path", namespace: manifest, of: entry) {
        parts.insert(path)
      }
    }
    return parts
  }

  /// meta.xml's office:meta. dc:creator is the last editor in ODF; meta:initial-creator is the
  /// author, so it wins when present (as Tika maps it).
  static func readMeta(_ tree: MarkupTree, kind: Kind, into properties: inout DocumentProperties) {
    guard let root = tree.root,
      let meta = tree.firstDescendant(of: root, named: "meta", namespace: office)
    else { return }
    func first(_ name: String, _ namespace: String) -> String? {
      tree.elementChildren(of: meta).first { tree.matches($0, name, namespace) }
        .map { tree.textContent(of: $0).trimmingWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
    }
    func all(_ name: String, _ namespace: String) -> [String] {
      tree.elementChildren(of: meta).filter { tree.matches($0, name, namespace) }
        .map { tree.textContent(of: $0).trimmingWhitespace() }.filter { !$0.isEmpty }
    }
    properties.title = first("title", dc)
    properties.subject = first("subject", dc)
    properties.contentDescription = first("description", dc)
    properties.keywords = all("keyword", self.meta)
    properties.languages = all("language", dc)
    properties.creator = first("generator", self.meta)
    if let author = first("initial-creator", self.meta) ?? first("creator", dc) {
      properties.authors = [author]
    }
    properties.created = DocumentProperties.date(first("creation-date", self.meta))
    properties.modified = DocumentProperties.date(first("date", dc))
    if kind == .text,
      let statistic = tree.elementChildren(of: meta).first(where: {
        tree.matches($0, "document-statistic", self.meta)
      }),
      let pages = tree.attribute("page-count", namespace: self.meta, of: statistic).flatMap({
        Int($0)
      })
    {
      properties.pageCount = pages
    }
  }

  /// Paragraphs, headings, list items, cells and slides each start a line; text:s, text:tab
  /// and text:line-break stand for their characters. Deleted tracked changes are not text.
  static let text = XMLTextCollector(
    paragraphs: ["p", "h", "list-item", "table-cell", "page", "frame"],
    lineBreaks: ["line-break"], tabs: ["tab"], spaces: ["s"],
    skipped: ["tracked-changes", "sequence-decls", "forms", "notes-configuration"])
}
