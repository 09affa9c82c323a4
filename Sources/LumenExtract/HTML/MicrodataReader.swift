/// HTML microdata items, read the way extruct 0.18 reads them (which follows the WHATWG
/// microdata algorithm with schema.org's habits): every `itemscope` element in document order
/// is an item unless an earlier item already took it as a property value; properties are the
/// `itemprop` descendants not inside a nested item, then those pulled in by `itemref`.
///
/// Bounded: at most `maxItems` items, and nesting through properties or references deeper than
/// `maxDepth` is cut (a reference chain on a hostile page could otherwise recurse without end).
struct MicrodataReader {
  static let maxItems = 10_000
  static let maxDepth = 64

  private let tree: MarkupTree
  /// The first element carrying each `id`, for `itemref`.
  private var elementsByID: [String: Int] = [:]
  private var seen: Set<Int> = []
  private(set) var problems: [String] = []

  init(tree: MarkupTree) { self.tree = tree }

  /// Every item in the document, extruct's shape.
  static func items(in tree: MarkupTree) -> (items: [StructuredValue], problems: [String]) {
    var reader = MicrodataReader(tree: tree)
    let scopes = tree.allElements().filter { tree.hasAttribute("itemscope", of: $0) }
    guard !scopes.isEmpty else { return ([], []) }
    for element in tree.allElements() {
      if let id = tree.attribute("id", of: element), reader.elementsByID[id] == nil {
        reader.elementsByID[id] = element
      }
    }
    var items: [StructuredValue] = []
    for scope in scopes {
      if reader.seen.count >= maxItems {
        reader.problems.append("microdata: more than \(maxItems) items; the rest are ignored")
        break
      }
      if let item = reader.item(scope, depth: 0) { items.append(item) }
    }
    return (items, reader.problems)
  }

  /// The item rooted at `node`, or nil when an earlier item already contains it.
  private mutating func item(_ node: Int, depth: Int) -> StructuredValue? {
    guard seen.insert(node).inserted else { return nil }
    var item: [String: StructuredValue] = [:]
    let types = Self.words(tree.attribute("itemtype", of: node) ?? "")
    if !types.isEmpty {
      item["type"] =
        types.count == 1 ? .string(types[0]) : .array(types.map(StructuredValue.string))
      if let id = tree.attribute("itemid", of: node), !id.isEmpty {
        item["id"] = .string(id.trimmingWhitespace())
      }
    }
    var properties = PropertyList()
    for property in propertyElements(of: node) {
      add(property, to: &properties, depth: depth)
    }
    for reference in Self.words(tree.attribute("itemref", of: node) ?? "") {
      guard let target = elementsByID[reference] else { continue }
      if tree.hasAttribute("itemprop", of: target), tree.hasAttribute("itemscope", of: target) {
        add(target, to: &properties, depth: depth)
        continue
      }
      let scope = nearestScope(of: target, includingSelf: true)
      for candidate in [target] + tree.descendantElements(of: target)
      where tree.hasAttribute("itemprop", of: candidate)
        && nearestScope(of: candidate, includingSelf: false) == scope
      {
        add(candidate, to: &properties, depth: depth)
      }
    }
    if properties.isEmpty {
      item["value"] = value(of: node, force: true, depth: depth)
    } else {
      item["properties"] = properties.value
    }
    return .object(item)
  }

  private mutating func add(_ property: Int, to properties: inout PropertyList, depth: Int) {
    let names = Self.words(tree.attribute("itemprop", of: property) ?? "")
    guard !names.isEmpty else { return }
    let value = value(of: property, force: false, depth: depth)
    for name in names { properties.append(value, for: name) }
  }

  /// The `itemprop` descendants of an item that do not belong to a nested item (a nested
  /// item's own element does belong: it is the property's value).
  private func propertyElements(of node: Int) -> [Int] {
    var result: [Int] = []
    tree.walk(under: node) { index in
      guard tree[index].kind == .element else { return false }
      if tree.hasAttribute("itemprop", of: index) { result.append(index) }
      return !tree.hasAttribute("itemscope", of: index)
    }
    return result
  }

  private func nearestScope(of node: Int, includingSelf: Bool) -> Int? {
    if includingSelf, tree.hasAttribute("itemscope", of: node) { return node }
    return tree.ancestors(of: node).first { tree.hasAttribute("itemscope", of: $0) }
  }

  /// A property's value: a nested item, an attribute (by element), or the element's text.
  private mutating func value(of node: Int, force: Bool, depth: Int) -> StructuredValue {
    if !force, tree.hasAttribute("itemscope", of: node) {
      guard depth < Self.maxDepth else {
        problems.append("microdata: items nested deeper than \(Self.maxDepth) are cut")
        return .null
      }
      return item(node, depth: depth + 1) ?? .null
    }
    switch tree[node].name {
    case "meta":
      return .string(tree.attribute("content", of: node) ?? "")
    case "audio", "embed", "iframe", "img", "source", "track", "video":
      return .string(url(node, "src"))
    case "a", "area", "link":
      return .string(url(node, "href"))
    case "object":
      return .string(url(node, "data"))
    case "data", "meter":
      return .string(tree.attribute("value", of: node) ?? "")
    case "time":
      return .string(tree.attribute("datetime", of: node) ?? "")
    default:
      break
    }
    if let content = tree.attribute("content", of: node), !content.isEmpty {
      return .string(content)
    }
    // schema.org actions: <input itemprop="query-input" name="q" required>
    if let itemprop = tree.attribute("itemprop", of: node),
      itemprop.hasSuffix("-input") || itemprop.hasSuffix("-output")
    {
      var result: [String: StructuredValue] = [:]
      if tree.hasAttribute("required", of: node) { result["valueRequired"] = .bool(true) }
      if let name = tree.attribute("name", of: node), !name.isEmpty {
        result["valueName"] = .string(name)
      }
      return .object(result)
    }
    return .string(HTMLTextRenderer.microdata.text(tree, node))
  }

  /// A URL attribute (falling back to `content`, as lazy-loading pages use it), trimmed of
  /// HTML white space. Relative URLs stay relative: there is no base URL for a file.
  private func url(_ node: Int, _ attribute: String) -> String {
    let raw =
      [tree.attribute(attribute, of: node), tree.attribute("content", of: node)]
      .compactMap { $0 }.first { !$0.isEmpty } ?? ""
    let html5Space: Set<Character> = [" ", "\t", "\n", "\u{0C}", "\r", "\r\n"]
    return String(
      raw.drop { html5Space.contains($0) }.reversed().drop { html5Space.contains($0) }.reversed())
  }

  private static func words(_ text: String) -> [String] {
    text.split(whereSeparator: \.isWhitespace).map(String.init)
  }
}

/// Property names in first-seen order, each with its values in document order; one value
/// is written bare and several as a list (extruct's non-strict form).
private struct PropertyList {
  private var names: [String] = []
  private var values: [String: [StructuredValue]] = [:]

  var isEmpty: Bool { names.isEmpty }

  mutating func append(_ value: StructuredValue, for name: String) {
    if values[name] == nil { names.append(name) }
    values[name, default: []].append(value)
  }

  var value: StructuredValue {
    .object(values.mapValues { $0.count == 1 ? $0[0] : .array($0) })
  }
}
