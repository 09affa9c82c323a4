/// Visible text of an HTML subtree, laid out the way html-text (the library extruct uses for
/// microdata text values) does it: white space collapsed, a line break around block elements,
/// a blank line around paragraphs and headings, and no space inserted before punctuation or
/// after an opening bracket. Text on both sides of a dropped element joins as one run, as it
/// does once lxml's cleaner has removed the element.
struct HTMLTextRenderer {
  /// Elements removed with their content.
  let dropped: Set<String>

  /// What extruct's cleaner removes before reading a property's text.
  static let microdata = HTMLTextRenderer(dropped: ["script", "style", "link", "meta"])
  /// For a page's `textContent`: also nothing from the head, templates or noscript fallbacks.
  static let page = HTMLTextRenderer(
    dropped: ["head", "script", "style", "link", "meta", "template", "noscript"])

  static let newlineTags: Set<String> = [
    "article", "aside", "br", "dd", "details", "div", "dt", "fieldset", "figcaption", "footer",
    "form", "header", "hr", "legend", "li", "main", "nav", "table", "tr",
  ]
  static let doubleNewlineTags: Set<String> = [
    "blockquote", "dl", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "ol", "p", "pre", "title",
    "ul",
  ]

  private enum Previous {
    case newline
    case doubleNewline
    case text(String)
  }

  /// The text of `node` and its descendants.
  func text(_ tree: MarkupTree, _ node: Int) -> String {
    var budget = TextBudget(limit: Int.max)
    render(tree, node, into: &budget)
    return budget.text.trimmingWhitespace()
  }

  /// Appends the text of `node` to `budget`, stopping once it is full.
  func render(_ tree: MarkupTree, _ node: Int, into budget: inout TextBudget) {
    var previous = Previous.doubleNewline
    var pending = ""

    func addNewlines(_ tag: String) {
      if case .doubleNewline = previous { return }
      if Self.doubleNewlineTags.contains(tag) {
        if case .newline = previous { budget.append("\n") } else { budget.append("\n\n") }
        previous = .doubleNewline
      } else if Self.newlineTags.contains(tag) {
        if case .newline = previous {} else { budget.append("\n") }
        previous = .newline
      }
    }

    func flush() {
      defer { pending = "" }
      let normalized = Self.normalize(pending)
      guard !normalized.isEmpty else { return }
      if case .text(let before) = previous, Self.needsSpace(between: before, and: normalized) {
        budget.append(" ")
      }
      budget.append(normalized)
      previous = .text(pending)
    }

    tree.traverse(
      from: node,
      enter: { index in
        guard !budget.isFull else { return false }
        let current = tree[index]
        if current.kind == .text {
          pending += current.text
          return false
        }
        if dropped.contains(current.name) { return false }
        flush()
        addNewlines(current.name)
        return true
      },
      exit: { index in
        guard tree[index].kind == .element else { return }
        flush()
        addNewlines(tree[index].name)
      })
    flush()
  }

  /// html-text's rule: a space between two runs unless the earlier one ends in white space
  /// or `(`, or the later one starts with punctuation that hugs the previous word.
  private static func needsSpace(between before: String, and text: String) -> Bool {
    if let last = before.last, last.isWhitespace { return true }
    if let first = text.first, ",:;.!?\")".contains(first) { return false }
    if before.last == "(" { return false }
    return true
  }

  /// Trimmed, with every run of white space made one space.
  static func normalize(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    var pendingSpace = false
    for character in text {
      if character.isWhitespace {
        pendingSpace = !result.isEmpty
      } else {
        if pendingSpace { result.append(" ") }
        pendingSpace = false
        result.append(character)
      }
    }
    return result
  }
}
