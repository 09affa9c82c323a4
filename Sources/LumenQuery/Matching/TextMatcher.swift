/// Spotlight's text matching — `==` and `!=` with wildcards and the `c d w t` modifiers — as
/// one compiled, reusable value. It is the single definition both the in-memory evaluator and
/// the SQL side (through SQLite functions calling it) use.
///
/// Semantics:
/// - Both sides are folded with `TextFolding` as `c` and `d` ask (always NFC).
/// - Without `w` or `t`, the whole value must match the pattern; `*` is any run of characters,
///   including none ("paris*" is a prefix, "*paris*" a substring).
/// - With `w` or `t`, pattern and value are cut into words by `WordSplitter` (on the unfolded
///   text, so case changes count), and the pattern's words must equal a contiguous run of the
///   value's words. A `*` inside a pattern word is a wildcard within that one word, so a
///   trailing `*` makes a word prefix. `"Paris"wc` matches "I love Paris" and "paris-france.jpg"
///   but not "Comparison"; `"Window"w` matches "MyWindowClass" but not "NSWindow".
/// - `t` (tokenized) means the same as `w` here; the store may answer it from its full-text index.
/// - A pattern with no word characters at all (`""w`, `"-"w`) falls back to whole-value matching.
///
/// The pattern is folded and split once, at init. Matching an ASCII value allocates nothing.
public struct TextMatcher: Sendable {
  public let pattern: TextPattern
  public let modifiers: TextModifiers
  private let whole: GlobPattern
  /// The pattern's words, when matching by words.
  private let words: [GlobPattern]?

  public init(pattern: TextPattern, modifiers: TextModifiers) {
    self.pattern = pattern
    self.modifiers = modifiers
    self.whole = GlobPattern(pattern.segments, modifiers: modifiers)
    if modifiers.contains(.wordBased) || modifiers.contains(.tokenized) {
      let split = Self.patternWords(pattern.segments)
      self.words = split.isEmpty ? nil : split.map { GlobPattern($0, modifiers: modifiers) }
    } else {
      self.words = nil
    }
  }

  private init(freeTextWords: [[TextPattern.Segment]], modifiers: TextModifiers) {
    self.pattern = TextPattern(segments: Array(freeTextWords.joined(separator: [.literal(" ")])))
    self.modifiers = modifiers
    self.whole = GlobPattern(pattern.segments, modifiers: modifiers)
    self.words = freeTextWords.map { GlobPattern($0, modifiers: modifiers) }
  }

  /// The matcher for one free-text term (a word or a quoted phrase): its words must appear as a
  /// contiguous run of a value's words, case- and diacritic-insensitively, the last one as a
  /// prefix — `"w*"cdw` for a single word. A `*` typed in the term is literal text, which is not
  /// a word character. Nil when the term has no word characters: such a term constrains nothing.
  public static func freeTextTerm(_ term: String) -> TextMatcher? {
    var words = patternWords([.literal(term)])
    guard !words.isEmpty else { return nil }
    words[words.count - 1].append(.wildcard)
    return TextMatcher(
      freeTextWords: words, modifiers: [.caseInsensitive, .diacriticInsensitive, .wordBased])
  }

  public func matches(_ value: String) -> Bool {
    let caseInsensitive = modifiers.contains(.caseInsensitive)
    var value = value
    if let result = value.withUTF8({ bytes -> Bool? in
      guard TextFolding.isASCII(bytes) else { return nil }
      if let words { return Self.matchASCIIWords(words, in: bytes, lowercasing: caseInsensitive) }
      return whole.matches(bytes, lowercasingASCII: caseInsensitive)
    }) {
      return result
    }
    return matchesUnicode(value)
  }

  /// The general path, also the reference the ASCII fast path is tested against: fold the
  /// value (or each of its words) into UTF-8 and match the folded pattern against it.
  func matchesUnicode(_ value: String) -> Bool {
    let caseInsensitive = modifiers.contains(.caseInsensitive)
    let diacriticInsensitive = modifiers.contains(.diacriticInsensitive)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(value.utf8.count)
    guard let words else {
      TextFolding.appendFolded(
        value[...], caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive,
        to: &bytes)
      return bytes.withUnsafeBufferPointer { whole.matches($0, lowercasingASCII: false) }
    }
    var bounds: [Range<Int>] = []
    if !Self.foldWordsByScalar(
      value, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive,
      bytes: &bytes, bounds: &bounds)
    {
      bytes.removeAll(keepingCapacity: true)
      bounds.removeAll()
      WordSplitter.forEachWord(in: value[...]) { word in
        let start = bytes.count
        TextFolding.appendFolded(
          word, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive,
          to: &bytes)
        bounds.append(start..<bytes.count)
      }
    }
    guard bounds.count >= words.count else { return false }
    return bytes.withUnsafeBufferPointer { buffer in
      for start in 0...(bounds.count - words.count) {
        var all = true
        for (offset, word) in words.enumerated() {
          let slice = UnsafeBufferPointer(rebasing: buffer[bounds[start + offset]])
          if !word.matches(slice, lowercasingASCII: false) {
            all = false
            break
          }
        }
        if all { return true }
      }
      return false
    }
  }

  /// Splits `value` into words and folds them in one pass, scalar by scalar; false (leaving
  /// partial output) when a scalar's folding depends on its neighbours.
  private static func foldWordsByScalar(
    _ value: String, caseInsensitive: Bool, diacriticInsensitive: Bool, bytes: inout [UInt8],
    bounds: inout [Range<Int>]
  ) -> Bool {
    var tracker = WordBoundaryTracker()
    var wordStart: Int? = nil
    for scalar in value.unicodeScalars {
      switch tracker.step(scalar) {
      case .separator:
        if let start = wordStart { bounds.append(start..<bytes.count) }
        wordStart = nil
        continue
      case .startsWord:
        if let start = wordStart { bounds.append(start..<bytes.count) }
        wordStart = bytes.count
      case .continuesWord:
        break
      }
      if scalar.value < 0x80 {
        let byte = UInt8(truncatingIfNeeded: scalar.value)
        bytes.append(caseInsensitive ? TextFolding.lowerASCII(byte) : byte)
      } else if let mapped = ScalarFoldingCache.shared.foldedUTF8(
        scalar, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive)
      {
        bytes.append(contentsOf: mapped)
      } else {
        return false
      }
    }
    if let start = wordStart { bounds.append(start..<bytes.count) }
    return true
  }

  // MARK: Words of the pattern

  /// Cuts pattern segments into words with the same rule as `WordSplitter`, `*` being a word
  /// character that resets the case state.
  static func patternWords(_ segments: [TextPattern.Segment]) -> [[TextPattern.Segment]] {
    var words: [[TextPattern.Segment]] = []
    var current: [TextPattern.Segment] = []
    var literal = String.UnicodeScalarView()
    var tracker = WordBoundaryTracker()
    func flushLiteral() {
      if !literal.isEmpty { current.append(.literal(String(literal))) }
      literal = String.UnicodeScalarView()
    }
    func endWord() {
      flushLiteral()
      if !current.isEmpty { words.append(current) }
      current = []
    }
    for segment in segments {
      switch segment {
      case .wildcard:
        if tracker.wildcard() == .startsWord { endWord() }
        flushLiteral()
        current.append(.wildcard)
      case .literal(let text):
        for scalar in text.unicodeScalars {
          switch tracker.step(scalar) {
          case .separator: endWord()
          case .startsWord:
            endWord()
            literal.append(scalar)
          case .continuesWord: literal.append(scalar)
          }
        }
      }
    }
    endWord()
    return words.map { TextPattern(segments: $0).segments }
  }

  // MARK: ASCII fast path

  private static func matchASCIIWords(
    _ words: [GlobPattern], in value: UnsafeBufferPointer<UInt8>, lowercasing: Bool
  ) -> Bool {
    var position = 0
    while let first = nextASCIIWord(in: value, from: position) {
      if matchASCIIRun(words, in: value, startingWith: first, lowercasing: lowercasing) {
        return true
      }
      position = first.upperBound
    }
    return false
  }

  private static func matchASCIIRun(
    _ words: [GlobPattern], in value: UnsafeBufferPointer<UInt8>, startingWith first: Range<Int>,
    lowercasing: Bool
  ) -> Bool {
    var range = first
    for (index, word) in words.enumerated() {
      if index > 0 {
        guard let next = nextASCIIWord(in: value, from: range.upperBound) else { return false }
        range = next
      }
      let slice = UnsafeBufferPointer(rebasing: value[range])
      guard word.matches(slice, lowercasingASCII: lowercasing) else { return false }
    }
    return true
  }

  /// The next word at or after `position`, which is a word boundary. Same rule as
  /// `WordBoundaryTracker`, on ASCII bytes.
  private static func nextASCIIWord(in value: UnsafeBufferPointer<UInt8>, from position: Int)
    -> Range<Int>?
  {
    var index = position
    while index < value.count, WordScalarClass.ascii(value[index]) == .separator { index += 1 }
    guard index < value.count else { return nil }
    let start = index
    var previousWasLowercase = false
    while index < value.count {
      let kind = WordScalarClass.ascii(value[index])
      if kind == .separator || (index > start && previousWasLowercase && kind == .uppercase) {
        break
      }
      previousWasLowercase = kind == .lowercase
      index += 1
    }
    return start..<index
  }
}
