import Testing

@testable import LumenQuery

@Suite struct TextFoldingTests {
  /// (text, case-insensitive, diacritic-insensitive, folded)
  static let cases: [(String, Bool, Bool, String)] = [
    ("Hello", true, false, "hello"),
    ("Hello", false, false, "Hello"),
    ("Hello", false, true, "Hello"),
    ("hello", true, true, "hello"),
    ("Résumé", true, false, "résumé"),
    ("Résumé", false, true, "Resume"),
    ("Résumé", true, true, "resume"),
    ("re\u{301}sume\u{301}", false, false, "résumé"),  // always NFC
    ("ÅNGSTRÖM", true, true, "angstrom"),
    ("naïve café", false, true, "naive cafe"),
    ("İ", true, false, "i\u{307}"),
    ("İ", true, true, "i"),
    ("ß", true, false, "ß"),
    ("Ωmega", true, false, "ωmega"),
    ("ﬁle", true, true, "ﬁle"),  // compatibility ligature: not a canonical decomposition
    ("ø", false, true, "ø"),  // no decomposition either
    ("Ǆ", true, false, "ǆ"),
    ("ñ", false, true, "n"),
    ("Ça va", true, true, "ca va"),
    ("", true, true, ""),
  ]

  @Test(arguments: cases)
  func folds(
    _ text: String, _ caseInsensitive: Bool, _ diacriticInsensitive: Bool, _ expected: String
  ) {
    let folded = TextFolding.fold(
      text, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive)
    #expect(Array(folded.unicodeScalars) == Array(expected.unicodeScalars))
  }

  static let orderings: [(String, String, TextModifiers, Int)] = [
    ("a", "b", [], -1),
    ("B", "a", [], -1),  // code point order: uppercase first
    ("B", "a", .c, 1),
    ("é", "f", [], 1),  // U+00E9 sorts after ASCII
    ("é", "f", .d, -1),
    ("e\u{301}", "é", [], 0),
    ("abc", "ab", [], 1),
    ("", "", [], 0),
  ]

  @Test(arguments: orderings)
  func ordersByCodePoint(_ lhs: String, _ rhs: String, _ modifiers: TextModifiers, _ expected: Int)
  {
    #expect(TextOrdering.compare(lhs, rhs, modifiers: modifiers) == expected)
  }
}
