import LumenTestSupport
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

  /// The byte-level path for ASCII cuts exactly the words `words(_:)` cuts, lowercased.
  @Test(arguments: cases.map(\.0).filter { $0.utf8.allSatisfy { $0 < 0x80 } })
  func lowercasedASCIIWordsAgreeOnTheExamples(_ text: String) {
    Self.expectASCIIPathAgrees(text)
  }

  @Test func lowercasedASCIIWordsAgreeOnRandomText() {
    var random = SeededRandom(seed: 0x5EED_A5C1)
    let alphabet = Array("aAbBzZ09 -_.\t\nxXmM/".unicodeScalars)
    for _ in 0..<2_000 {
      let length = Int.random(in: 0...24, using: &random)
      var scalars = String.UnicodeScalarView()
      for _ in 0..<length { scalars.append(alphabet.randomElement(using: &random)!) }
      Self.expectASCIIPathAgrees(String(scalars))
    }
  }

  static func expectASCIIPathAgrees(_ text: String) {
    var buffer: [UInt8] = Array("kept".utf8)
    var text = text
    let count = text.withUTF8 {
      WordSplitter.appendLowercasedWords(ofASCII: $0, to: &buffer, spaceFirst: true)
    }
    let words = WordSplitter.words(text).map { $0.lowercased() }
    #expect(count == words.count, "\(text.debugDescription)")
    let expected = "kept" + words.map { " " + $0 }.joined()
    #expect(String(decoding: buffer, as: UTF8.self) == expected, "\(text.debugDescription)")
    #expect(words.isEmpty || !WordSplitter.isSeparator(ascii: words[0].utf8.first!))
  }
}
