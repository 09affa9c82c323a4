import LumenModel

/// EPUB 2 and 3: the package document's metadata (found through META-INF/container.xml) and
/// the text of the spine's XHTML documents in reading order.
public struct EPUBExtractor: Extractor {
  public static let name = "epub"
  public static let version = 1

  static let container = "urn:oasis:names:tc:opendocument:xmlns:container"
  static let opf = "http://www.idpf.org/2007/opf"
  static let dc = "http://purl.org/dc/elements/1.1/"

  public init() {}

  public func extract(_ request: ExtractionRequest) throws(ExtractionError) -> ExtractionOutcome {
    let package = try ZipPackage(request)
    var outcome = ExtractionOutcome()
    outcome.problems = package.openingProblems
    guard let opfPath = Self.packageDocumentPath(package, problems: &outcome.problems),
      let tree = package.xml(opfPath, problems: &outcome.problems), let root = tree.root
    else {
      if package.contains("META-INF/encryption.xml") {
        outcome.problems.append("encrypted: META-INF/encryption.xml lists protected resources")
      }
      outcome.problems.append("no readable package document (OPF)")
      return outcome
    }
    var properties = DocumentProperties()
    if let metadata = tree.firstDescendant(of: root, named: "metadata", namespace: Self.opf) {
      Self.readMetadata(
        tree, metadata, uniqueIdentifier: tree.attribute("unique-identifier", of: root),
        into: &properties)
    }
    properties.write(into: &outcome.attributes)
    if request.limits.maxTextBytes > 0 {
      var budget = TextBudget(limit: request.limits.maxTextBytes)
      for part in Self.spine(tree, root, folder: PackagePath.folder(of: opfPath))
      where !budget.isFull {
        guard let bytes = try? package.read(part), let document = MarkupParser.parseHTML(bytes),
          let body = document.root
        else { continue }
        budget.separate(with: "\n\n")
        HTMLTextRenderer.page.render(document, body, into: &budget)
      }
      if let text = budget.result { outcome.attributes.set(.text(text), for: .textContent) }
    }
    return outcome
  }

  /// container.xml's first rootfile with the OPF media type.
  static func packageDocumentPath(_ package: ZipPackage, problems: inout [String]) -> String? {
    guard let tree = package.xml("META-INF/container.xml", problems: &problems),
      let root = tree.root
    else { return nil }
    let rootfiles = tree.descendants(of: root, named: "rootfile")
    let chosen =
      rootfiles.first { tree.attribute("media-type", of: $0) == "application/oebps-package+xml" }
      ?? rootfiles.first
    return chosen.flatMap { tree.attribute("full-path", of: $0) }.map {
      PackagePath.resolve($0, from: "")
    }
  }

  /// Dublin Core in document order. The title is the one refined as `title-type main` (EPUB 3),
  /// else the first; the identifier is the one the package names as unique.
  static func readMetadata(
    _ tree: MarkupTree, _ metadata: Int, uniqueIdentifier: String?,
    into properties: inout DocumentProperties
  ) {
    let elements = tree.descendantElements(of: metadata)
    func values(_ name: String) -> [(id: String?, text: String)] {
      elements.filter { tree.matches($0, name, dc) }.compactMap { node in
        let text = tree.textContent(of: node).trimmingWhitespace()
        return text.isEmpty ? nil : (tree.attribute("id", of: node), text)
      }
    }
    // EPUB 3 refinements: <meta refines="#t1" property="title-type">main</meta>
    var refinements: [String: [String: String]] = [:]
    var modified: String?
    for meta in elements where tree[meta].name == "meta" {
      let value = tree.textContent(of: meta).trimmingWhitespace()
      guard let property = tree.attribute("property", of: meta) else { continue }
      if let refines = tree.attribute("refines", of: meta), refines.hasPrefix("#") {
        refinements[String(refines.dropFirst()), default: [:]][property] = value
      } else if property == "dcterms:modified" {
        modified = value
      }
    }
    let titles = values("title")
    properties.title =
      (titles.first { $0.id.flatMap { refinements[$0]?["title-type"] } == "main" } ?? titles.first)?
      .text
    properties.authors = values("creator").map(\.text)
    properties.contributors = values("contributor").map(\.text)
    properties.publishers = values("publisher").map(\.text)
    properties.languages = values("language").map(\.text)
    properties.keywords = values("subject").map(\.text)
    properties.contentDescription = values("description").first?.text
    properties.copyright = values("rights").first?.text
    let identifiers = values("identifier")
    properties.identifier =
      (identifiers.first { $0.id != nil && $0.id == uniqueIdentifier } ?? identifiers.first)?.text
    properties.created = DocumentProperties.date(values("date").first?.text)
    properties.modified = DocumentProperties.date(modified)
  }

  /// The spine's XHTML parts, in reading order, resolved against the OPF's folder.
  static func spine(_ tree: MarkupTree, _ root: Int, folder: String) -> [String] {
    guard let manifest = tree.firstDescendant(of: root, named: "manifest", namespace: opf),
      let spine = tree.firstDescendant(of: root, named: "spine", namespace: opf)
    else { return [] }
    var hrefs: [String: String] = [:]
    for item in tree.elementChildren(of: manifest) where tree[item].name == "item" {
      let type = tree.attribute("media-type", of: item) ?? ""
      guard type.contains("html"), let id = tree.attribute("id", of: item),
        let href = tree.attribute("href", of: item)
      else { continue }
      hrefs[id] = PackagePath.resolve(href, from: folder)
    }
    return tree.elementChildren(of: spine).compactMap { itemref in
      tree.attribute("idref", of: itemref).flatMap { hrefs[$0] }
    }
  }
}
