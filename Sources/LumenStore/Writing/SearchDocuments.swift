import LumenModel
import LumenQuery

/// The two texts an item contributes to full-text search, folded in Swift with the query
/// language's own `TextFolding` and `WordSplitter` so that the indexes find a superset of what
/// the exact matcher accepts (each candidate is then checked exactly):
/// - `words` (for `item_fts`, bm25): the words of every searchable-by-default text value, cut
///   the way `w` matching cuts them (so "MyWindowClass" contributes my window class), case- and
///   diacritic-folded, separated by spaces, one value per line. Since these are exactly the
///   folded words `TextMatcher` compares under `cdw`, free text and `* == "…"cdw` are checked
///   on this one column instead of every attribute (`lumen_match_lines`).
/// - `terms` (for `item_trigram`): every searchable-by-default value except `textContent`,
///   folded whole, one per line, for substring and wildcard queries on names and titles; of
///   `textContent` only the first `bodyHead` folded characters, enough to find `budget*` at the
///   start of a body (a trigram index of whole bodies would be several times their size).
struct SearchDocuments: Equatable {
  /// How much of a body the trigram index holds, in Unicode scalars of the folded text.
  static let bodyHead = 64
  /// A line of its own between two values' lines in `words`: a token for the word index that
  /// no ASCII query word can equal or start with, so a phrase never spans two values.
  static let valueBreak = "\u{01C2}"
  var words: String?
  var terms: String?
  /// `words` has only ASCII besides the value breaks.
  var wordsAreASCII = false

  static func fold(_ text: String) -> String {
    TextFolding.fold(text, caseInsensitive: true, diacriticInsensitive: true)
  }

  /// The first `bodyHead` scalars of the folded text. Folding a generous prefix rather than the
  /// whole body keeps this cheap; folding is local to a character and its marks, so the result
  /// is the head of the folded whole.
  static func head(of text: String) -> String {
    var prefix = String.UnicodeScalarView()
    prefix.append(contentsOf: text.unicodeScalars.prefix(bodyHead * 2))
    var head = String.UnicodeScalarView()
    head.append(contentsOf: fold(String(prefix)).unicodeScalars.prefix(bodyHead))
    return String(head)
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

  /// The documents of an item's attributes, given with their registry rows. Built into two
  /// byte buffers, ASCII values folded in place (lowercased) without a `String` per word: this
  /// ran once per item written and showed in profiles of the write path.
  init(_ attributes: [(AttributeKey, [AttributeValue])], cache: FoldCache = FoldCache()) {
    var chosen = attributes.filter { $0.0.isSearchableByDefault && $0.0.valueType == .text }
    if chosen.count > 1 { chosen.sort { $0.0.name < $1.0.name } }
    var words: [UInt8] = []
    var terms: [UInt8] = []
    var valueCount = 0
    var wordLines = 0
    var wordsAreASCII = true
    // A value already written adds nothing: a file's display name is usually its file name,
    // and writing it twice doubled the full-text work of a crawl and `item_text`.
    var written: [String] = []
    for (row, values) in chosen {
      let isBody = !row.isCustom && row.name == AttributeKey.textContent.name
      for case .text(let text) in values {
        if written.contains(where: { $0.isIdentical(to: text) }) { continue }
        written.append(text)
        let isASCII = text.utf8.allSatisfy { $0 < 0x80 }
        let mark = words.count
        if wordLines > 0 { words.append(contentsOf: Self.valueBreakLine) }
        if Self.appendFoldedWords(
          of: text, isASCII: isASCII, to: &words, cache: cache, wordsAreASCII: &wordsAreASCII) > 0
        {
          wordLines += 1
        } else {
          words.removeSubrange(mark...)
        }
        if valueCount > 0 { terms.append(UInt8(ascii: "\n")) }
        valueCount += 1
        if isBody {
          terms.append(contentsOf: Self.head(of: text).utf8)
        } else if isASCII {
          Self.appendLowercasedASCII(text.utf8, to: &terms)
        } else {
          terms.append(contentsOf: cache.fold(text).utf8)
        }
      }
    }
    self.words = wordLines == 0 ? nil : String(decoding: words, as: UTF8.self)
    self.wordsAreASCII = wordsAreASCII
    self.terms = valueCount == 0 ? nil : String(decoding: terms, as: UTF8.self)
  }

  /// Appends the words of `text`, folded and separated by spaces; returns how many. Pure
  /// ASCII runs (most of most bodies, even with a few curly quotes or accents in them) are cut
  /// and lowercased byte by byte; only a run between two ASCII separators that holds other
  /// characters goes through `WordSplitter.words` and Foundation's folding. Cutting at an ASCII
  /// separator is safe: it always ends a word and resets the case-change rule.
  private static func appendFoldedWords(
    of text: String, isASCII: Bool, to words: inout [UInt8], cache: FoldCache,
    wordsAreASCII: inout Bool
  ) -> Int {
    var text = text
    return text.withUTF8 { bytes in
      if isASCII {
        return WordSplitter.appendLowercasedWords(ofASCII: bytes, to: &words, spaceFirst: false)
      }
      var count = 0
      var runStart = 0
      var runIsASCII = true
      func appendRun(upTo end: Int) {
        guard runStart < end else { return }
        let run = UnsafeBufferPointer(rebasing: bytes[runStart..<end])
        if runIsASCII {
          count += WordSplitter.appendLowercasedWords(
            ofASCII: run, to: &words, spaceFirst: count > 0)
          return
        }
        for word in WordSplitter.words(String(decoding: run, as: UTF8.self)) {
          if count > 0 { words.append(UInt8(ascii: " ")) }
          count += 1
          let folded = cache.fold(word)
          if wordsAreASCII && !folded.utf8.allSatisfy({ $0 < 0x80 }) { wordsAreASCII = false }
          words.append(contentsOf: folded.utf8)
        }
      }
      for (offset, byte) in bytes.enumerated() {
        if byte >= 0x80 {
          runIsASCII = false
        } else if WordSplitter.isSeparator(ascii: byte) {
          appendRun(upTo: offset)
          runStart = offset + 1
          runIsASCII = true
        }
      }
      appendRun(upTo: bytes.count)
      return count
    }
  }

  /// The separator between two values' lines in `words`.
  private static let valueBreakLine = Array(("\n" + valueBreak + "\n").utf8)

  /// ASCII folds to its lowercase (`TextFolding` with `c` and `d`).
  private static func appendLowercasedASCII(
    _ bytes: some Sequence<UInt8>, to buffer: inout [UInt8]
  ) {
    for byte in bytes {
      buffer.append(byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte)
    }
  }
}
