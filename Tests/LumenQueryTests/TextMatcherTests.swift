import Foundation
import LumenModel
import LumenTestSupport
import Testing

@testable import LumenQuery

@Suite struct TextMatcherTests {
  /// (pattern as written in a query, modifiers, value, matches?)
  static let cases: [(String, TextModifiers, String, Bool)] = [
    // Exact, case, diacritics (Core Spotlight's table).
    ("Paris", [], "Paris", true),
    ("Paris", [], "paris", false),
    ("Paris", [], "Paris ", false),
    ("Paris", .c, "PARIS", true),
    ("Paris", .c, "I love Paris", false),
    ("Paris", [.w, .c], "I love Paris", true),
    ("Paris", [.w, .c], "paris-france.jpg", true),
    ("Paris", [.w, .c], "Comparison", false),
    ("Paris", [.w, .c], "PARIS", true),
    ("Paris", .w, "I love paris", false),
    ("Paris", [.t, .c], "I love Paris", true),
    ("Paris", [.t, .c], "Comparison", false),
    // Word boundaries at case changes.
    ("Window", .w, "MyWindowClass", true),
    ("Window", .w, "NSWindow", false),
    ("Window", [.w, .c], "NSWindow", false),
    ("window", .w, "MyWindowClass", false),
    ("window", [.w, .c], "MyWindowClass", true),
    ("MyWindow", .w, "MyWindowClass", true),
    ("WindowClass", .w, "MyWindowClass", true),
    ("MyClass", .w, "MyWindowClass", false),
    ("Phone", .w, "iPhone 15", true),
    // Wildcards: prefix, suffix, substring, infix.
    ("paris*", [], "parisian", true),
    ("paris*", [], "paris", true),
    ("paris*", [], "Parisian", false),
    ("paris*", .c, "Parisian", true),
    ("*paris*", [], "comparison", true),
    ("*paris*", .c, "I love PARIS!", true),
    ("*paris*", [], "pari", false),
    ("*.jpg", [], "a.jpg", true),
    ("*.jpg", [], "a.jpeg", false),
    ("*.JPG", .c, "holiday.jpg", true),
    ("a*b*c", [], "abc", true),
    ("a*b*c", [], "aXXbYYc", true),
    ("a*b*c", [], "acb", false),
    ("a*a", [], "a", false),
    ("a*a", [], "aa", true),
    ("ab*bc", [], "abc", false),
    ("ab*bc", [], "abbc", true),
    ("*", [], "", true),
    ("*", [], "anything", true),
    ("**", [], "x", true),
    ("", [], "", true),
    ("", [], "x", false),
    (#"x\*y"#, [], "x*y", true),
    (#"x\*y"#, [], "xAy", false),
    // Diacritics and canonical equivalence.
    ("résumé", .d, "resume", true),
    ("resume", .d, "résumé", true),
    ("résumé", [], "resume", false),
    ("résumé", [], "re\u{301}sume\u{301}", true),
    ("re\u{301}sume\u{301}", [], "résumé", true),
    ("résumé*", [.c, .d], "RESUME.pdf", true),
    ("résumé*", .c, "RÉSUMÉ.pdf", true),
    ("résumé*", .c, "RESUME.pdf", false),
    ("ü", [.c, .d], "U", true),
    ("Ærø", [.c, .d], "ærø", true),
    ("straße", .c, "STRASSE", false),  // lowercased(), not full case folding
    // Words: phrases are contiguous runs; `*` stays inside its word.
    ("new york", [.w, .c], "I ❤ New-York city", true),
    ("new york", [.w, .c], "New Jersey, York", false),
    ("york new", [.w, .c], "New York", false),
    ("par*", [.w, .c], "I love Paris", true),
    ("*ris", [.w, .c], "I love Paris", true),
    ("*ris", [.w, .c], "I love Parisian food", false),
    ("p*s", [.w, .c], "pass the paris", true),
    ("*", .w, "any word", true),
    ("*", .w, " -- ", false),
    ("café", [.w, .c, .d], "Le Cafe de Paris", true),
    ("naïve", [.w, .d], "a naive plan", true),
    ("naïve", .w, "a naive plan", false),
    ("東京", .w, "東京 タワー", true),
    // No word characters: whole-value matching.
    ("", .w, "", true),
    ("-", .w, "-", true),
    ("-", .w, "a-b", false),
  ]

  @Test(arguments: cases)
  func matches(_ patternText: String, _ modifiers: TextModifiers, _ value: String, _ expected: Bool)
  {
    let matcher = TextMatcher(pattern: pattern(patternText), modifiers: modifiers)
    #expect(matcher.matches(value) == expected)
    #expect(matcher.matchesUnicode(value) == expected)
  }

  @Test(arguments: [
    ("budget", "Quarterly Budget Report", true),
    ("budg", "Quarterly Budget Report", true),
    ("udget", "Quarterly Budget Report", false),
    ("budget report", "Quarterly Budget Report", true),
    ("quarterly report", "Quarterly Budget Report", false),
    ("budget rep", "Quarterly Budget Report", true),
    ("bud rep", "Quarterly Budget Report", false),
    ("resume", "Résumé.pdf", true),
    ("RÉSUMÉ", "resume.pdf", true),
    ("budget*", "budgets", true),
    ("2024", "budget-2024.pdf", true),
    ("don't", "Don't panic", true),
  ])
  func freeTextTerms(_ term: String, _ value: String, _ expected: Bool) throws {
    let matcher = try #require(TextMatcher.freeTextTerm(term))
    #expect(matcher.matches(value) == expected)
    #expect(matcher.matchesUnicode(value) == expected)
  }

  @Test(arguments: ["", " ", "-", "*", "--- ***"])
  func freeTextTermsWithoutWordsConstrainNothing(_ term: String) {
    #expect(TextMatcher.freeTextTerm(term) == nil)
  }

  /// The ASCII fast path must agree with the general path (fold, split, compare) on every
  /// pattern and value: random strings over an alphabet full of boundaries and wildcards.
  @Test func asciiFastPathAgreesWithGeneralPath() {
    var random = SeededRandom(seed: 0x5EED_A5C1)
    let alphabet = Array("aAbBzZ09 -._*")
    let modifierSets: [TextModifiers] = [[], .c, .w, [.w, .c], .t, [.c, .d, .w]]
    func randomText(_ length: Int) -> String {
      String((0..<length).map { _ in alphabet.randomElement(using: &random)! })
    }
    var disagreements: [String] = []
    for _ in 0..<4000 {
      let patternText = randomText(Int.random(in: 0...5, using: &random))
      let modifiers = modifierSets.randomElement(using: &random)!
      let matcher = TextMatcher(pattern: pattern(patternText), modifiers: modifiers)
      for _ in 0..<5 {
        let value = randomText(Int.random(in: 0...12, using: &random)).replacingOccurrences(
          of: "*", with: "x")
        if matcher.matches(value) != matcher.matchesUnicode(value) {
          disagreements.append("\(patternText) \(modifiers.rawValue) \(value)")
        }
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
  }

  /// Whole-value matching against a textbook dynamic-programming glob over Unicode scalars of
  /// the folded strings.
  @Test func wildcardMatchingAgreesWithReferenceGlob() {
    var random = SeededRandom(seed: 42)
    let alphabet = Array("abAB*é\u{301}")
    var disagreements: [String] = []
    for _ in 0..<3000 {
      let patternText = String(
        (0..<Int.random(in: 0...6, using: &random)).map { _ in
          alphabet.randomElement(using: &random)!
        })
      let value = String(
        (0..<Int.random(in: 0...8, using: &random)).map { _ in
          alphabet.randomElement(using: &random)!
        }
      )
      .replacingOccurrences(of: "*", with: "")
      let modifiers: TextModifiers = Bool.random(using: &random) ? .c : []
      let compiled = pattern(patternText)
      let expected = referenceGlob(
        compiled, TextFolding.fold(value, modifiers: modifiers), modifiers)
      if TextMatcher(pattern: compiled, modifiers: modifiers).matches(value) != expected {
        disagreements.append("\(patternText) ~ \(value)")
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
  }

  private func referenceGlob(_ pattern: TextPattern, _ folded: String, _ modifiers: TextModifiers)
    -> Bool
  {
    enum Unit: Equatable {
      case scalar(Unicode.Scalar)
      case star
    }
    var units: [Unit] = []
    for segment in pattern.segments {
      switch segment {
      case .wildcard: units.append(.star)
      case .literal(let text):
        units += TextFolding.fold(text, modifiers: modifiers).unicodeScalars.map(Unit.scalar)
      }
    }
    let value = Array(folded.unicodeScalars)
    // matched[i][j]: units[..<i] matches value[..<j]
    var matched = Array(
      repeating: Array(repeating: false, count: value.count + 1), count: units.count + 1)
    matched[0][0] = true
    for i in 1...max(units.count, 1) where i <= units.count {
      for j in 0...value.count {
        switch units[i - 1] {
        case .star: matched[i][j] = matched[i - 1][j] || (j > 0 && matched[i][j - 1])
        case .scalar(let s): matched[i][j] = j > 0 && matched[i - 1][j - 1] && value[j - 1] == s
        }
      }
    }
    return matched[units.count][value.count]
  }
}

@Suite struct TextPatternEncodingTests {
  @Test(arguments: [
    (TextPattern(segments: [.literal("a\\"), .wildcard]), #"a\\*"#),
    (TextPattern(segments: [.literal("a*b")]), #"a\*b"#),
    (TextPattern(segments: [.wildcard, .literal("paris"), .wildcard]), "*paris*"),
    (TextPattern(segments: []), ""),
  ])
  func encodes(_ pattern: TextPattern, _ encoded: String) {
    #expect(pattern.encoded == encoded)
    #expect(TextPattern(encoded: encoded) == pattern)
  }

  @Test(arguments: [#"a\"#, #"\n"#, #"x\y"#])
  func refusesMalformed(_ encoded: String) {
    #expect(TextPattern(encoded: encoded) == nil)
  }

  @Test func randomPatternsRoundTrip() {
    var random = SeededRandom(seed: 7)
    let pieces: [TextPattern.Segment] = [
      .literal("a"), .literal("\\"), .literal("*"), .literal("é"), .literal("\\*"), .wildcard,
    ]
    for _ in 0..<2000 {
      let pattern = TextPattern(
        segments: (0..<Int.random(in: 0...6, using: &random)).map { _ in
          pieces.randomElement(using: &random)!
        })
      #expect(TextPattern(encoded: pattern.encoded) == pattern)
    }
  }
}
