/// Cuts text into the words that word-based matching (`w`, `t`) and free-text search compare.
/// See `WordBoundaryTracker` for the rule: runs of letters and digits, with a lower→upper case
/// change as an extra boundary ("MyWindowClass" → My, Window, Class; "paris-france.jpg" → paris,
/// france, jpg; "NSWindow" → NSWindow).
public enum WordSplitter {
  /// The words of `text`, in order, as slices of it (cut at Unicode scalar boundaries).
  public static func words(_ text: String) -> [Substring] {
    var words: [Substring] = []
    forEachWord(in: text[...]) { words.append($0) }
    return words
  }

  /// The words `words(_:)` finds in ASCII `bytes`, lowercased and separated by single spaces
  /// (and preceded by one when `spaceFirst`), appended to `buffer`; returns how many. A crawl
  /// cuts the body of every text file it indexes into words for full-text search, and a
  /// `Substring` and a scalar index per word made that the walk threads' largest cost. Bytes
  /// outside ASCII are separators here: text that has any goes through `words(_:)` instead
  /// (an ASCII separator always ends a word, so a caller may cut text there and pass the pure
  /// ASCII runs here).
  public static func appendLowercasedWords(
    ofASCII bytes: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8], spaceFirst: Bool
  ) -> Int {
    var tracker = WordBoundaryTracker()
    var count = 0
    for byte in bytes {
      switch tracker.step(ascii: byte < 0x80 ? byte : UInt8(ascii: " ")) {
      case .separator: continue
      case .startsWord:
        if count > 0 || spaceFirst { buffer.append(UInt8(ascii: " ")) }
        count += 1
      case .continuesWord: break
      }
      buffer.append(byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte)
    }
    return count
  }

  /// Whether an ASCII byte is outside every word (it ends the word before it).
  @inlinable
  public static func isSeparator(ascii byte: UInt8) -> Bool {
    if case .separator = WordScalarClass.ascii(byte) { return true }
    return false
  }

  /// Calls `body` with each word of `text`, in order, without collecting them.
  static func forEachWord(in text: Substring, _ body: (Substring) -> Void) {
    let scalars = text.unicodeScalars
    var tracker = WordBoundaryTracker()
    var start: Substring.UnicodeScalarView.Index? = nil
    var index = scalars.startIndex
    while index < scalars.endIndex {
      switch tracker.step(scalars[index]) {
      case .separator:
        if let wordStart = start {
          body(Substring(scalars[wordStart..<index]))
          start = nil
        }
      case .startsWord:
        if let wordStart = start { body(Substring(scalars[wordStart..<index])) }
        start = index
      case .continuesWord:
        break
      }
      scalars.formIndex(after: &index)
    }
    if let wordStart = start { body(Substring(scalars[wordStart..<scalars.endIndex])) }
  }
}
