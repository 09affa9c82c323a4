import LumenQuery

/// A text comparison: `==`/`!=` with a pattern (wildcards, `c d w t`), or an ordering.
struct TextTest {
  let pattern: TextPattern
  let op: ComparisonOperator
  let modifiers: TextModifiers

  var isMatch: Bool { op == .equal || op == .notEqual }
  var folds: Bool { !modifiers.isDisjoint(with: [.caseInsensitive, .diacriticInsensitive]) }
  var byWords: Bool { !modifiers.isDisjoint(with: [.wordBased, .tokenized]) }
}

/// `InRange` on text: both ends inclusive, no folding beyond NFC.
struct TextRangeTest {
  let lower: String
  let upper: String
}

/// How an index on the raw text can answer a text test. Stored text is raw (file names must
/// round-trip byte for byte), while the query language compares NFC forms; for the rows whose
/// text is all NFC (flag bit 4 clear: nearly all) comparing raw bytes with the NFC pattern is
/// exact, and the few flagged rows are checked with `TextMatcher` through a small partial index.
enum IndexPlan {
  /// A condition on one value, exact for NFC values.
  case exact((String) -> String)
  /// A condition on one value that every match satisfies (the rest is checked).
  case candidate((String) -> String)
  case none
}
