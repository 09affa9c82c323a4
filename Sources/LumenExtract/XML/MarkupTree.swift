/// A parsed XML or HTML document, copied out of libxml2 into a flat array of nodes.
///
/// Flat on purpose: nodes refer to each other by index, so no walk over the tree ever recurses
/// and no deinit chain can overflow the stack, however deep a hostile document nests. Once
/// built, the tree owns no C memory and can cross threads.
struct MarkupTree: Sendable {
  enum Kind: Sendable, Equatable {
    case element
    /// Text or CDATA; comments, processing instructions and entity references are not kept.
    case text
  }

  struct Attribute: Sendable, Equatable {
    /// The local name (`content`), without prefix. HTML attribute names are lower case.
    let name: String
    /// The namespace URI for prefixed XML attributes (`meta:name`), nil otherwise.
    let namespace: String?
    let value: String
  }

  struct Node: Sendable {
    let kind: Kind
    /// The local name of an element (`title`), lower case in HTML; empty for text.
    let name: String
    /// The element's namespace URI, nil in HTML and for unqualified XML elements.
    let namespace: String?
    let attributes: [Attribute]
    /// The characters of a text node; empty for elements.
    let text: String
    var parent: Int
    var firstChild: Int = -1
    var nextSibling: Int = -1
  }

  private(set) var nodes: [Node] = []

  /// Index of the first top-level element (the document element), if any.
  var root: Int? { nodes.indices.first { nodes[$0].parent == -1 && nodes[$0].kind == .element } }

  subscript(_ index: Int) -> Node { nodes[index] }

  /// Appends a node under `parent` (-1 for top level) after `previousSibling` (-1 if first).
  mutating func append(_ node: Node, previousSibling: Int) -> Int {
    let index = nodes.count
    nodes.append(node)
    if previousSibling >= 0 {
      nodes[previousSibling].nextSibling = index
    } else if node.parent >= 0 {
      nodes[node.parent].firstChild = index
    }
    return index
  }

  // MARK: Navigation (iterative)

  /// The children of a node, in document order.
  func children(of index: Int) -> [Int] {
    var result: [Int] = []
    var child = nodes[index].firstChild
    while child >= 0 {
      result.append(child)
      child = nodes[child].nextSibling
    }
    return result
  }

  /// The element children of a node.
  func elementChildren(of index: Int) -> [Int] {
    children(of: index).filter { nodes[$0].kind == .element }
  }

  /// Calls `body` for every node under `index` (excluding it) in document order; returning
  /// false from `body` skips that node's descendants.
  func walk(under index: Int, _ body: (Int) -> Bool) {
    var next = nodes[index].firstChild
    while next >= 0 {
      let current = next
      if body(current), nodes[current].firstChild >= 0 {
        next = nodes[current].firstChild
        continue
      }
      next = following(current, within: index)
    }
  }

  /// Visits `start` and its subtree depth-first without recursion: `enter` before a node's
  /// children (return false to skip them), `exit` after them, for entered nodes only.
  func traverse(from start: Int, enter: (Int) -> Bool, exit: (Int) -> Void) {
    var node = start
    var entered = enter(node)
    while true {
      if entered, nodes[node].firstChild >= 0 {
        node = nodes[node].firstChild
        entered = enter(node)
        continue
      }
      if entered { exit(node) }
      while true {
        if node == start { return }
        let sibling = nodes[node].nextSibling
        if sibling >= 0 {
          node = sibling
          entered = enter(node)
          break
        }
        node = nodes[node].parent
        exit(node)
      }
    }
  }

  /// The next node in document order after `index`'s subtree, staying inside `ancestor`.
  private func following(_ index: Int, within ancestor: Int) -> Int {
    var node = index
    while node >= 0, node != ancestor {
      if nodes[node].nextSibling >= 0 { return nodes[node].nextSibling }
      node = nodes[node].parent
    }
    return -1
  }

  /// Every element under `index` (excluding it) in document order.
  func descendantElements(of index: Int) -> [Int] {
    var result: [Int] = []
    walk(under: index) { node in
      if nodes[node].kind == .element { result.append(node) }
      return true
    }
    return result
  }

  /// Elements in the whole document, in document order.
  func allElements() -> [Int] {
    var result: [Int] = []
    for top in nodes.indices where nodes[top].parent == -1 {
      if nodes[top].kind == .element { result.append(top) }
      result += descendantElements(of: top)
    }
    return result
  }

  /// Descendant elements with this local name (and namespace, when given).
  func descendants(of index: Int, named name: String, namespace: String? = nil) -> [Int] {
    descendantElements(of: index).filter { matches($0, name, namespace) }
  }

  /// The first descendant element with this local name (and namespace, when given).
  func firstDescendant(of index: Int, named name: String, namespace: String? = nil) -> Int? {
    var found: Int?
    walk(under: index) { node in
      guard found == nil else { return false }
      if matches(node, name, namespace) { found = node }
      return true
    }
    return found
  }

  func matches(_ index: Int, _ name: String, _ namespace: String?) -> Bool {
    let node = nodes[index]
    return node.kind == .element && node.name == name
      && (namespace == nil || node.namespace == namespace)
  }

  /// An attribute's value by local name (and namespace, when given).
  func attribute(_ name: String, namespace: String? = nil, of index: Int) -> String? {
    nodes[index].attributes.first {
      $0.name == name && (namespace == nil || $0.namespace == namespace)
    }?.value
  }

  func hasAttribute(_ name: String, of index: Int) -> Bool {
    nodes[index].attributes.contains { $0.name == name }
  }

  /// The concatenated text of all text nodes under `index`, as XPath's `string()`.
  func textContent(of index: Int) -> String {
    if nodes[index].kind == .text { return nodes[index].text }
    var result = ""
    walk(under: index) { node in
      if nodes[node].kind == .text { result += nodes[node].text }
      return true
    }
    return result
  }

  /// The ancestors of a node, nearest first.
  func ancestors(of index: Int) -> [Int] {
    var result: [Int] = []
    var node = nodes[index].parent
    while node >= 0 {
      result.append(node)
      node = nodes[node].parent
    }
    return result
  }
}
