import LumenModel

/// Office Open XML: Word (.docx), PowerPoint (.pptx) and Excel (.xlsx), transitional and strict.
/// docProps/core.xml and app.xml for metadata (found through the package relationships),
/// the main part for text. A password-protected file is not a zip at all but an OLE2 compound
/// file holding an encrypted package: that is reported, and the item keeps its type.
public struct OOXMLExtractor: Extractor {
  public static let name = "ooxml"
  public static let version = 1

  public init() {}

  public func extract(_ request: ExtractionRequest) throws(ExtractionError) -> ExtractionOutcome {
    if ZipPackage.isCompoundFile(request) { return CompoundFileReport.outcome(request) }
    let package = try ZipPackage(request)
    var outcome = ExtractionOutcome()
    outcome.problems = package.openingProblems
    let relationships = OOXMLRelationships(package: package, part: "", problems: &outcome.problems)
    let corePart = relationships.target(endingWith: "core-properties") ?? "docProps/core.xml"
    let appPart =
      relationships.target(endingWith: "extended-properties")
      ?? relationships.target(endingWith: "extendedProperties") ?? "docProps/app.xml"
    let mainPart = relationships.target(endingWith: "officeDocument") ?? Self.guessMainPart(package)
    var properties = DocumentProperties()
    if let tree = package.xml(corePart, problems: &outcome.problems) {
      Self.readCore(tree, into: &properties)
    }
    let kind = Self.kind(of: mainPart)
    if let tree = package.xml(appPart, problems: &outcome.problems) {
      Self.readApp(tree, kind: kind, into: &properties)
    }
    var budget = TextBudget(limit: request.limits.maxTextBytes)
    switch kind {
    case .word:
      if let main = mainPart, let tree = package.xml(main, problems: &outcome.problems),
        let root = tree.root
      {
        Self.wordText.collect(tree, from: root, into: &budget)
      }
    case .presentation:
      let slides = Self.slideParts(package, presentation: mainPart, problems: &outcome.problems)
      if properties.pageCount == nil, !slides.isEmpty { properties.pageCount = slides.count }
      for slide in slides where !budget.isFull {
        guard let tree = package.xml(slide, problems: &outcome.problems), let root = tree.root
        else {
          continue
        }
        budget.separate(with: "\n")
        Self.drawingText.collect(tree, from: root, into: &budget)
      }
    case .spreadsheet:
      let workbook = OOXMLRelationships(
        package: package, part: mainPart ?? "xl/workbook.xml", problems: &outcome.problems)
      let strings = workbook.target(endingWith: "sharedStrings") ?? "xl/sharedStrings.xml"
      if let tree = package.xml(strings, problems: &outcome.problems), let root = tree.root {
        Self.sharedStringsText.collect(tree, from: root, into: &budget)
      }
    case .other:
      break
    }
    properties.write(into: &outcome.attributes)
    if let text = budget.result { outcome.attributes.set(.text(text), for: .textContent) }
    return outcome
  }

  enum Kind { case word, presentation, spreadsheet, other }

  static func kind(of mainPart: String?) -> Kind {
    guard let mainPart else { return .other }
    if mainPart.hasPrefix("word/") { return .word }
    if mainPart.hasPrefix("ppt/") { return .presentation }
    if mainPart.hasPrefix("xl/") { return .spreadsheet }
    return .other
  }

  static func guessMainPart(_ package: ZipPackage) -> String? {
    ["word/document.xml", "ppt/presentation.xml", "xl/workbook.xml"].first(where: package.contains)
  }

  /// core.xml: Dublin Core plus OPC's own terms. Names are matched without namespace, since
  /// strict and transitional files and hand-made ones disagree on prefixes but not on names.
  static func readCore(_ tree: MarkupTree, into properties: inout DocumentProperties) {
    guard let root = tree.root else { return }
    var values: [String: String] = [:]
    for child in tree.elementChildren(of: root) where values[tree[child].name] == nil {
      let text = tree.textContent(of: child).trimmingWhitespace()
      if !text.isEmpty { values[tree[child].name] = text }
    }
    properties.title = values["title"]
    properties.subject = values["subject"]
    properties.contentDescription = values["description"]
    // Word joins several authors with semicolons (testWORD_multi_authors.docx).
    properties.authors =
      values["creator"].map {
        $0.split(separator: ";").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
      } ?? []
    properties.keywords = values["keywords"].map(DocumentProperties.splitKeywords) ?? []
    properties.languages = values["language"].map { [$0] } ?? []
    properties.created = DocumentProperties.date(values["created"])
    properties.modified = DocumentProperties.date(values["modified"])
  }

  /// app.xml: the writing application, the company, and pages (Word) or slides (PowerPoint).
  /// A spreadsheet's sheets are not pages, so Excel files get no page count.
  static func readApp(_ tree: MarkupTree, kind: Kind, into properties: inout DocumentProperties) {
    guard let root = tree.root else { return }
    func value(_ name: String) -> String? {
      tree.elementChildren(of: root).first { tree[$0].name == name }
        .map { tree.textContent(of: $0).trimmingWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
    }
    properties.creator = value("Application")
    properties.organizations = value("Company").map { [$0] } ?? []
    switch kind {
    case .word: properties.pageCount = value("Pages").flatMap { Int($0) }
    case .presentation: properties.pageCount = value("Slides").flatMap { Int($0) }
    case .spreadsheet, .other: break
    }
  }

  /// Slides in presentation order (p:sldIdLst through the presentation's relationships),
  /// else ppt/slides/slideN.xml in numeric order.
  static func slideParts(_ package: ZipPackage, presentation: String?, problems: inout [String])
    -> [String]
  {
    if let presentation, let tree = package.xml(presentation, problems: &problems),
      let root = tree.root
    {
      let relationships = OOXMLRelationships(
        package: package, part: presentation, problems: &problems)
      let ids = tree.descendants(of: root, named: "sldId").compactMap {
        tree.attribute("id", namespace: OOXMLRelationships.officeRelationships, of: $0)
          ?? tree.attribute("id", namespace: OOXMLRelationships.strictRelationships, of: $0)
      }
      let parts = ids.compactMap { relationships.target(id: $0) }.filter(package.contains)
      if !parts.isEmpty { return parts }
    }
    func number(_ name: String) -> Int {
      Int(name.dropFirst("ppt/slides/slide".count).dropLast(".xml".count)) ?? Int.max
    }
    return package.names.filter { $0.hasPrefix("ppt/slides/slide") && $0.hasSuffix(".xml") }
      .sorted { number($0) < number($1) }
  }

  /// WordprocessingML: text lives in w:t only (w:delText and w:instrText are not text).
  static let wordText = XMLTextCollector(
    paragraphs: ["p", "tc"], lineBreaks: ["br", "cr"], tabs: ["tab"], textElements: ["t"])
  /// DrawingML (slides): a:t in a:p.
  static let drawingText = XMLTextCollector(
    paragraphs: ["p"], lineBreaks: ["br"], textElements: ["t"])
  /// SpreadsheetML shared strings: one si per string.
  static let sharedStringsText = XMLTextCollector(paragraphs: ["si"], textElements: ["t"])
}
