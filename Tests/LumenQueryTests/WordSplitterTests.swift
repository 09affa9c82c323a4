import Testing

@testable import LumenQuery

@Suite struct WordSplitterTests {
  static let cases: [(String, [String])] = [
    ("MyWindowClass", ["My", "Window", "Class"]),
    ("paris-france.jpg", ["paris", "france", "jpg"]),
    ("NSWindow", ["NSWindow"]),
    ("HTMLParser", ["HTMLParser"]),
    ("camelCaseXML", ["camel", "Case", "XML"]),
    ("I love Paris", ["I", "love", "Paris"]),
    ("iPhone 15 Pro", ["i", "Phone", "15", "Pro"]),
    ("file_name2024", ["file", "name2024"]),
    ("a1B", ["a1B"]),
    ("", []),
    ("--- ...", []),
    ("  two  words  ", ["two", "words"]),
    ("résumé.pdf", ["résumé", "pdf"]),
    ("re\u{301}sume\u{301} final", ["re\u{301}sume\u{301}", "final"]),
    ("\u{301}x", ["x"]),
    ("Ünïcode Wörds", ["Ünïcode", "Wörds"]),
    ("éÉ", ["é", "É"]),
    ("東京タワー", ["東京タワー"]),
    ("Ǆemal ǅemal", ["Ǆemal", "ǅemal"]),
    ("x²", ["x²"]),
    ("tab\tnew\nline", ["tab", "new", "line"]),
    ("emoji😀between", ["emoji", "between"]),
  ]

  @Test(arguments: cases)
  func splits(_ text: String, _ expected: [String]) {
    #expect(WordSplitter.words(text).map(String.init) == expected)
  }
}
