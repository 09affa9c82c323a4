/// The document-level fields of an XMP packet (the `/Metadata` stream of a PDF), read from
/// RDF/XML. Used where the Info dictionary is silent: PDF 2.0 deprecates Info, and some
/// producers (testPDFTripleLangTitle.pdf) write the title only here.
struct XMPPacket: Equatable {
  var title: String?
  var creators: [String] = []
  var description: String?
  var keywords: String?
  /// dc:subject: XMP's keyword list (a bag of phrases, not a subject line).
  var subjects: [String] = []
  var creatorTool: String?
  var producer: String?
  var createDate: String?
  var modifyDate: String?

  static let dc = "http://purl.org/dc/elements/1.1/"
  static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
  static let xmp = "http://ns.adobe.com/xap/1.0/"
  static let pdf = "http://ns.adobe.com/pdf/1.3/"
  static let xml = "http://www.w3.org/XML/1998/namespace"

  init(title: String? = nil) { self.title = title }

  /// Parses a packet; nil when it is not XML at all.
  init?(bytes: [UInt8]) {
    guard let tree = MarkupParser.parseXML(bytes), let root = tree.root else { return nil }
    let descriptions =
      tree.matches(root, "Description", Self.rdf)
      ? [root] : tree.descendants(of: root, named: "Description", namespace: Self.rdf)
    for node in descriptions {
      title = title ?? Self.alternative(tree, node, "title", Self.dc)
      description = description ?? Self.alternative(tree, node, "description", Self.dc)
      if creators.isEmpty { creators = Self.list(tree, node, "creator", Self.dc) }
      if subjects.isEmpty { subjects = Self.list(tree, node, "subject", Self.dc) }
      keywords = keywords ?? Self.simple(tree, node, "Keywords", Self.pdf)
      creatorTool = creatorTool ?? Self.simple(tree, node, "CreatorTool", Self.xmp)
      producer = producer ?? Self.simple(tree, node, "Producer", Self.pdf)
      createDate = createDate ?? Self.simple(tree, node, "CreateDate", Self.xmp)
      modifyDate = modifyDate ?? Self.simple(tree, node, "ModifyDate", Self.xmp)
    }
  }

  /// A simple property, written as an attribute of rdf:Description or as a child element.
  private static func simple(
    _ tree: MarkupTree, _ description: Int, _ name: String, _ namespace: String
  )
    -> String?
  {
    if let value = tree.attribute(name, namespace: namespace, of: description) {
      return nonEmpty(value)
    }
    guard let element = child(tree, description, name, namespace) else { return nil }
    return nonEmpty(tree.textContent(of: element))
  }

  /// A language alternative (rdf:Alt): the `x-default` entry, else the first.
  private static func alternative(
    _ tree: MarkupTree, _ description: Int, _ name: String, _ namespace: String
  ) -> String? {
    if let value = tree.attribute(name, namespace: namespace, of: description) {
      return nonEmpty(value)
    }
    guard let element = child(tree, description, name, namespace) else { return nil }
    let items = tree.descendants(of: element, named: "li", namespace: rdf)
    guard !items.isEmpty else { return nonEmpty(tree.textContent(of: element)) }
    let preferred = items.first { tree.attribute("lang", namespace: xml, of: $0) == "x-default" }
    return nonEmpty(tree.textContent(of: preferred ?? items[0]))
  }

  /// An ordered or unordered array (rdf:Seq, rdf:Bag): every non-empty entry.
  private static func list(
    _ tree: MarkupTree, _ description: Int, _ name: String, _ namespace: String
  )
    -> [String]
  {
    guard let element = child(tree, description, name, namespace) else { return [] }
    let items = tree.descendants(of: element, named: "li", namespace: rdf)
    let values = items.isEmpty ? [tree.textContent(of: element)] : items.map(tree.textContent(of:))
    return values.compactMap(nonEmpty)
  }

  private static func child(_ tree: MarkupTree, _ node: Int, _ name: String, _ namespace: String)
    -> Int?
  {
    tree.elementChildren(of: node).first { tree.matches($0, name, namespace) }
  }

  private static func nonEmpty(_ value: String) -> String? {
    let trimmed = value.trimmingWhitespace()
    return trimmed.isEmpty ? nil : trimmed
  }
}
