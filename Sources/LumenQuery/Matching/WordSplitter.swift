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
