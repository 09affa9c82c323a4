import LumenModel
import LumenQuery

/// What a text pattern lets the two FTS5 indexes find, as MATCH expressions. Both give a
/// superset of the exact matches (the compiler then checks each candidate with `TextMatcher`),
/// so every rule here errs towards dropping a piece rather than risking a missed item.
enum FullTextPieces {
  /// The trigram MATCH for a pattern: each literal run (for `w`/`t`, each word's runs), folded
  /// as `item_text.terms` is, must occur; runs shorter than three scalars cannot be looked up
  /// and are dropped. Nil when nothing is left. A run is cut at NUL, which an FTS5 query string
  /// cannot hold (it ends the string: "unterminated string"; found by bench/fuzz).
  static func trigram(_ pattern: TextPattern, modifiers: TextModifiers) -> String? {
    var runs: [String] = []
    let byWords = modifiers.contains(.wordBased) || modifiers.contains(.tokenized)
    for literal in pattern.literals {
      if byWords {
        runs += WordSplitter.words(literal).map(String.init)
      } else {
        runs.append(literal)
      }
    }
    let chosen = runs.flatMap { $0.split(separator: "\u{0}").map(String.init) }
      .map(SearchDocuments.fold).flatMap { spread(Self.trigrams(of: $0)) }
    return chosen.isEmpty ? nil : distinct(chosen).map(quoted).joined(separator: " AND ")
  }

  /// The trigrams of a folded run, as the trigram tokenizer cuts them (three Unicode scalars at
  /// each position); none for a run shorter than three. From v4 on, `item_trigram` keeps no
  /// positions (`detail=none`: half the size and a tenth of the write time), so a run is looked
  /// up as all its trigrams rather than as a phrase: a superset of the phrase's rows, which the
  /// exact check that always follows narrows down.
  static func trigrams(of run: String) -> [String] {
    let scalars = Array(run.unicodeScalars)
    guard scalars.count >= 3 else { return [] }
    return (0...(scalars.count - 3)).map { start in
      var trigram = String.UnicodeScalarView()
      trigram.append(contentsOf: scalars[start..<start + 3])
      return String(trigram)
    }
  }

  /// At most `maximumTrigrams` of a run's trigrams, evenly spaced from its first to its last:
  /// without positions each one is a whole doclist to intersect, and a few spread over the run
  /// already single out its rows (bench/query, `Invoice-48213.pdf` at 1M items: 15 trigrams
  /// 5.8 ms, 6 of them 2.4 ms, the same one candidate).
  static func spread(_ trigrams: [String]) -> [String] {
    let count = trigrams.count
    guard count > maximumTrigrams else { return trigrams }
    return (0..<maximumTrigrams).map { step in
      trigrams[(step * (count - 1) + (maximumTrigrams - 1) / 2) / (maximumTrigrams - 1)]
    }
  }

  static let maximumTrigrams = 6

  /// The list without repeats, in first-seen order (compared by bytes, as the tokenizer does).
  private static func distinct(_ list: [String]) -> [String] {
    var seen: Set<ExactText> = []
    return list.filter { seen.insert(ExactText($0)).inserted }
  }

  /// The trigram MATCH for a pattern anchored at the start of the value (no leading `*`, no
  /// `w`): its first literal run, which also lies within the indexed head of a body
  /// (`SearchDocuments.bodyHead`) when it is no longer than that. Nil otherwise. The run is
  /// cut at its first NUL, as in `trigram`: what comes before it is still the value's start.
  static func anchoredTrigram(_ pattern: TextPattern, modifiers: TextModifiers) -> String? {
    guard modifiers.isDisjoint(with: [.wordBased, .tokenized]),
      case .literal(let run) = pattern.segments.first
    else { return nil }
    let first = run.prefix { $0 != "\u{0}" }
    let folded = SearchDocuments.fold(String(first))
    let length = folded.unicodeScalars.count
    guard length >= 3, length <= SearchDocuments.bodyHead else { return nil }
    return distinct(spread(trigrams(of: folded))).map(quoted).joined(separator: " AND ")
  }

  /// Whether a pattern has word characters, so that `w` matching goes by words (otherwise
  /// `TextMatcher` compares whole values).
  static func hasWords(_ pattern: TextPattern) -> Bool {
    pattern.literals.contains { !WordSplitter.words($0).isEmpty }
  }

  /// The word-index MATCH for a `w`/`t` pattern: each whole word of the pattern as a token, a
  /// word ending at a wildcard as a prefix token, a word starting at one dropped (FTS5 has no
  /// suffix search). Nil when no word is usable (the pattern then has no word characters, or
  /// only ones the tokenizer might treat differently).
  static func words(_ pattern: TextPattern) -> String? {
    var tokens: [String] = []
    let segments = pattern.segments
    for (index, segment) in segments.enumerated() {
      guard case .literal(let literal) = segment else { continue }
      let wildcardBefore = index > 0
      let wildcardAfter = index < segments.count - 1
      for word in WordSplitter.words(literal) {
        if wildcardBefore && word.startIndex == literal.startIndex { continue }
        let isPrefix = wildcardAfter && word.endIndex == literal.endIndex
        if let token = token(String(word), prefix: isPrefix) { tokens.append(token) }
      }
    }
    return tokens.isEmpty ? nil : tokens.joined(separator: " AND ")
  }

  /// The word-index MATCH for a free-text term (`TextMatcher.freeTextTerm`: its words in a row,
  /// the last as a prefix): the phrase `"w1 w2 …"*`. `exact` when every word is ASCII: then on
  /// an item whose words document is ASCII (`ItemFlags.wordsAreASCII`) the word index tokenizes
  /// both sides exactly as `WordSplitter` does, and value breaks stop a phrase from spanning two
  /// values, so a match needs no further check. A word the tokenizer might cut differently
  /// makes the phrase unusable: the other words are then required one by one.
  static func freeTextTerm(_ term: String) -> (match: String, exact: Bool)? {
    let words = WordSplitter.words(term).map { SearchDocuments.fold(String($0)) }
    guard !words.isEmpty else { return nil }
    if words.allSatisfy({ $0.unicodeScalars.allSatisfy(isSafe) }) {
      let ascii = words.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) }
      return (quoted(words.joined(separator: " ")) + "*", ascii)
    }
    var tokens: [String] = []
    for (index, word) in words.enumerated() where word.unicodeScalars.allSatisfy(isSafe) {
      tokens.append(quoted(word) + (index == words.count - 1 ? "*" : ""))
    }
    return tokens.isEmpty ? nil : (tokens.joined(separator: " AND "), false)
  }

  /// One folded word as an FTS5 string, or nil when a scalar of it might be tokenized
  /// differently by `unicode61` (which knows Unicode 6.1) than by `WordSplitter`.
  private static func token(_ word: String, prefix: Bool) -> String? {
    let folded = SearchDocuments.fold(word)
    guard !folded.isEmpty, folded.unicodeScalars.allSatisfy(isSafe) else { return nil }
    return quoted(folded) + (prefix ? "*" : "")
  }

  private static func isSafe(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII {
      return (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z")
        || (scalar >= "0" && scalar <= "9")
    }
    guard let age = scalar.properties.age, age.major < 6 || (age.major == 6 && age.minor <= 1)
    else { return false }
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
      .decimalNumber, .letterNumber, .otherNumber:
      return true
    default:
      return false
    }
  }

  /// An FTS5 string literal: double quotes, inner quotes doubled.
  static func quoted(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    out.append("\"")
    for scalar in text.unicodeScalars {
      if scalar == "\"" { out.append("\"") }
      out.append(scalar)
    }
    out.append("\"")
    return String(out)
  }
}
