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

  /// `fold`, remembering the non-ASCII results: folding them goes through Foundation's
  /// normalization, and the same words ("résumé", "Zürich") come back item after item.
  final class FoldCache {
    private var folded: [ExactText: String] = [:]

    func fold(_ text: some StringProtocol) -> String {
      let string = String(text)
      if string.utf8.allSatisfy({ $0 < 0x80 }) { return SearchDocuments.fold(string) }
      let key = ExactText(string)
      if let known = folded[key] { return known }
      if folded.count > 20_000 { folded.removeAll(keepingCapacity: true) }
      let result = SearchDocuments.fold(string)
      folded[key] = result
      return result
    }
  }

  /// The documents of an item's attributes, given with their registry rows.
  init(_ attributes: [(AttributeKey, [AttributeValue])], cache: FoldCache = FoldCache()) {
    var words: [String] = []
    var terms: [String] = []
    for (row, values) in attributes.sorted(by: { $0.0.name < $1.0.name }) {
      guard row.isSearchableByDefault, row.valueType == .text else { continue }
      let isBody = !row.isCustom && row.name == AttributeKey.textContent.name
      for case .text(let text) in values {
        for word in WordSplitter.words(text) { words.append(cache.fold(word)) }
        if !isBody { terms.append(cache.fold(text)) }
      }
    }
    self.words = words.isEmpty ? nil : words.joined(separator: " ")
    self.terms = terms.isEmpty ? nil : terms.joined(separator: "\n")
  }
}
