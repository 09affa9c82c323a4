import Foundation
import LumenTestSupport
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

/// The per-scalar path must give exactly what folding the whole text gives.
@Suite struct TextFoldingPathTests {
  @Test func perScalarFoldingEqualsWholeTextFolding() {
    var random = SeededRandom(seed: 0xF01D)
    let alphabet: [String] = [
      "a", "Z", " ", "é", "É", "e", "\u{301}", "\u{308}", "\u{327}", "ß", "İ", "ı", "Σ", "ς",
      "Å", "\u{212B}", "Ω", "\u{2126}", "ǅ", "ﬁ", "が", "か", "\u{3099}", "한", "\u{1100}",
      "\u{1161}", "\u{11A8}", "ଓ", "\u{0B3E}", "\u{0B47}", "東", "😀", "🇫🇷", "Ⅻ", "ǰ", "ẞ",
      "ὒ", "\u{0345}", "Ⅷ", "Ａ", "\u{0F73}", "\u{1E9E}", "Ǆ", "\u{0CC6}", "\u{0CD5}", "\u{0CC7}",
      "\u{0CBF}", "\u{0344}", "\u{0E31}", "\u{20DD}", "\u{0903}",
      "é".decomposedStringWithCanonicalMapping,
    ]
    var differences: [String] = []
    for _ in 0..<3000 {
      let text = (0..<Int.random(in: 1...6, using: &random)).map { _ in
        alphabet.randomElement(using: &random)!
      }.joined()
      for (c, d) in [(false, false), (true, false), (false, true), (true, true)] {
        let fast = TextFolding.fold(text, caseInsensitive: c, diacriticInsensitive: d)
        let whole = TextFolding.foldWhole(text, caseInsensitive: c, diacriticInsensitive: d)
        if Array(fast.unicodeScalars) != Array(whole.unicodeScalars) {
          differences.append(
            "\(text.unicodeScalars.map { String($0.value, radix: 16) }) c=\(c) d=\(d)")
        }
      }
    }
    #expect(differences.isEmpty, "\(differences.prefix(5))")
  }
}
