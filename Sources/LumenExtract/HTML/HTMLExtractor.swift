import LumenModel

/// Web pages: title, meta description/keywords/author, language, visible text, and the
/// structured data inside (schema.org microdata and JSON-LD) as Core Spotlight attributes plus
/// dotted custom keys such as `schema.Event.location.address.addressLocality`.
public struct HTMLExtractor: Extractor {
  public static let name = "html"
  public static let version = 1

  public init() {}

  public func extract(_ request: ExtractionRequest) throws(ExtractionError) -> ExtractionOutcome {
    let contents = try BoundedFile.read(request)
    var outcome = ExtractionOutcome()
    if !contents.isComplete {
      outcome.problems.append(
        "only the first \(request.limits.maxBytes) bytes were read (MaxBytes)")
    }
    guard !contents.bytes.isEmpty else { return outcome }
    guard let tree = MarkupParser.parseHTML(contents.bytes, encoding: Self.encoding(request)) else {
      throw ExtractionError(.malformed, "libxml2 could not parse the page")
    }
    Self.readHead(tree, into: &outcome.attributes)
    let data = Self.structuredData(in: tree)
    outcome.problems += data.problems
    if !data.isEmpty {
      var mapper = SchemaOrgMapper()
      mapper.map(data.microdata.map { SchemaNode(microdata: $0) } + Self.jsonLDNodes(data.jsonLD))
      outcome.problems += mapper.problems
      Self.merge(mapper.attributes, into: &outcome.attributes)
    }
    if request.limits.maxTextBytes > 0, let root = tree.root {
      var budget = TextBudget(limit: request.limits.maxTextBytes)
      let body = tree.firstDescendant(of: root, named: "body") ?? root
      HTMLTextRenderer.page.render(tree, body, into: &budget)
      if let text = budget.result { outcome.attributes.set(.text(text), for: .textContent) }
    }
    return outcome
  }

  /// The microdata and JSON-LD items of a page, in extruct's shape.
  public static func structuredData(in bytes: [UInt8]) -> StructuredData {
    guard let tree = MarkupParser.parseHTML(bytes) else { return StructuredData() }
    return structuredData(in: tree)
  }

  static func structuredData(in tree: MarkupTree) -> StructuredData {
    let microdata = MicrodataReader.items(in: tree)
    let jsonLD = JSONLDReader.items(in: tree)
    return StructuredData(
      microdata: microdata.items, jsonLD: jsonLD.items,
      problems: microdata.problems + jsonLD.problems)
  }

  /// JSON-LD items as nodes; a `@graph` contributes each of its members as an item.
  static func jsonLDNodes(_ items: [StructuredValue]) -> [SchemaNode] {
    var nodes: [SchemaNode] = []
    for case .object(let object) in items {
      let schemaContext = object["@context"].map(SchemaNode.isSchemaContext) ?? true
      if let graph = object["@graph"] {
        for case .object(let member) in graph.asList {
          nodes.append(SchemaNode(jsonLD: member, schemaContext: schemaContext))
        }
      }
      if object.keys.contains(where: { !$0.hasPrefix("@") }) || object["@type"] != nil {
        nodes.append(SchemaNode(jsonLD: object, schemaContext: schemaContext))
      }
    }
    return nodes
  }

  /// `<title>`, `<meta name=description|keywords|author>` and `<html lang>`.
  static func readHead(_ tree: MarkupTree, into attributes: inout AttributeSet) {
    guard let root = tree.root else { return }
    if let lang = tree.attribute("lang", of: root)?.trimmingWhitespace(), !lang.isEmpty {
      attributes.set([.text(lang)], for: .languages)
    }
    if let title = tree.firstDescendant(of: root, named: "title") {
      let text = HTMLTextRenderer.normalize(tree.textContent(of: title))
      if !text.isEmpty { attributes.set(.text(text), for: .title) }
    }
    for meta in tree.descendants(of: root, named: "meta") {
      guard let name = tree.attribute("name", of: meta)?.lowercased(),
        let content = tree.attribute("content", of: meta)?.trimmingWhitespace(), !content.isEmpty
      else { continue }
      switch name {
      case "description" where attributes.text(.contentDescription) == nil:
        attributes.set(.text(content), for: .contentDescription)
      case "keywords":
        for keyword in content.split(separator: ",") {
          attributes.append(.text(keyword.trimmingWhitespace()), for: .keywords)
        }
      case "author":
        attributes.append(.text(content), for: .authors)
      default:
        continue
      }
    }
  }

  /// Adds what structured data found without overriding what the page's head already said.
  static func merge(_ found: AttributeSet, into attributes: inout AttributeSet) {
    for key in found.orderedKeys {
      guard let values = found[key] else { continue }
      if key.isMultiValued {
        for value in values { attributes.append(value, for: key) }
      } else if attributes[key] == nil {
        attributes.set(values, for: key)
      }
    }
  }

  /// A charset named in the MIME type (from the sniffer or an HTTP header saved alongside)
  /// wins over the page's own `<meta charset>`.
  static func encoding(_ request: ExtractionRequest) -> String? {
    TextTranscoder.charset(inMIMEType: request.mimeType)
  }
}
