import LumenModel
import LumenQuery

/// The two texts an item contributes to full-text search, folded in Swift with the query
/// language's own `TextFolding` and `WordSplitter` so that the indexes find a superset of what
/// the exact matcher accepts (each candidate is then checked exactly):
/// - `words` (for `item_fts`, bm25): the words of every searchable-by-default text value, cut
///   the way `w` matching cuts them (so "MyWindowClass" contributes my window class), case- and
///   diacritic-folded, separated by spaces;
/// - `terms` (for `item_trigram`): every searchable-by-default value except `textContent`,
///   folded whole, one per line, for substring and wildcard queries on names and titles.
///   `textContent` is left out because a trigram index of document bodies would be several
///   times their size.
struct SearchDocuments: Equatable {
  var words: String?
  var terms: String?

  static func fold(_ text: String) -> String {
    TextFolding.fold(text, caseInsensitive: true, diacriticInsensitive: true)
  }

  /// The documents of an item's attributes, given with their registry rows.
  init(_ attributes: [(AttributeKey, [AttributeValue])]) {
    var words: [String] = []
    var terms: [String] = []
    for (row, values) in attributes.sorted(by: { $0.0.name < $1.0.name }) {
      guard row.isSearchableByDefault, row.valueType == .text else { continue }
      let isBody = !row.isCustom && row.name == AttributeKey.textContent.name
      for case .text(let text) in values {
        for word in WordSplitter.words(text) { words.append(Self.fold(String(word))) }
        if !isBody { terms.append(Self.fold(text)) }
      }
    }
    self.words = words.isEmpty ? nil : words.joined(separator: " ")
    self.terms = terms.isEmpty ? nil : terms.joined(separator: "\n")
  }
}
