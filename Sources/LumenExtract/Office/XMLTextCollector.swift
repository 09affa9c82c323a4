/// Gathers the readable text of an office XML part into a `TextBudget`: text nodes in document
/// order, a line break before each paragraph-like element, a tab or space for the elements
/// that stand for one. Stops walking as soon as the budget is full.
struct XMLTextCollector {
  /// Local names of elements that start a new line (paragraphs, headings, cells, slides).
  var paragraphs: Set<String>
  /// Elements that stand for a line break, a tab, a space.
  var lineBreaks: Set<String> = []
  var tabs: Set<String> = []
  var spaces: Set<String> = []
  /// Elements whose text is not document text (deleted changes, field instructions).
  var skipped: Set<String> = []
  /// When set, only text directly inside these elements counts (OOXML keeps all text in
  /// `w:t`/`a:t`/`t`, and everything else between elements is formatting whitespace).
  var textElements: Set<String>? = nil

  func collect(_ tree: MarkupTree, from start: Int, into budget: inout TextBudget) {
    tree.walk(under: start) { index in
      guard !budget.isFull else { return false }
      let node = tree[index]
      switch node.kind {
      case .text:
        if let textElements {
          guard node.parent >= 0, textElements.contains(tree[node.parent].name) else {
            return false
          }
        } else if node.text.allSatisfy(\.isWhitespace), !node.text.isEmpty {
          // Indentation between elements, not content: a single space at most.
          budget.separate(with: " ")
          return false
        }
        budget.append(node.text)
        return false
      case .element:
        if skipped.contains(node.name) { return false }
        if paragraphs.contains(node.name) { budget.separate(with: "\n") }
        if lineBreaks.contains(node.name) { budget.append("\n") }
        if tabs.contains(node.name) { budget.append("\t") }
        if spaces.contains(node.name) { budget.append(" ") }
        return true
      }
    }
  }
}
