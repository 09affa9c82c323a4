import Foundation
import LumenModel
import LumenQuery
import LumenTestSupport
import Testing

@testable import LumenStore

@Suite struct FullTextTests {
  @Test func freeTextIsRankedByBM25() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    let filler = Array(repeating: "lorem ipsum dolor sit amet", count: 40).joined(separator: " ")
    try await index.indexSearchableItems([
      item("once-in-long", [(.textContent, .text("budget " + filler))]),
      item("title-repeated", [(.title, .text("Budget budget: the budget"))]),
      item("unrelated", [(.title, .text("holiday photos"))]),
      item("title-once", [(.title, .text("Budget"))]),
    ])
    let query = try QueryParser(registry: index.registry).parse("budget")
    let results = try await index.search(query, options: SearchOptions(order: .relevance))
    #expect(results.map(\.identifier) == ["title-repeated", "title-once", "once-in-long"])
    #expect(results[0].score > results[1].score && results[1].score > results[2].score)
  }

  /// A value given twice (a file's display name is usually its file name) is in each full-text
  /// document once; what it contributes to search is the same.
  @Test func aRepeatedValueIsInTheSearchDocumentsOnce() throws {
    let name = AttributeValue.text("Quarterly Report.pdf")
    let once = SearchDocuments([(.fileName, [name])])
    let twice = SearchDocuments([(.displayName, [name]), (.fileName, [name])])
    #expect(twice == once)
    #expect(once.words == "quarterly report pdf")
    #expect(once.terms == "quarterly report.pdf")
    let different = SearchDocuments([
      (.displayName, [.text("Quarterly Report")]), (.fileName, [name]),
    ])
    #expect(different.terms == "quarterly report\nquarterly report.pdf")
  }

  /// The words document is cut byte by byte in ASCII runs and word by word elsewhere; both
  /// give what folding each word of `WordSplitter.words` gives, for text that mixes them
  /// (accents, combining marks, curly quotes, CJK, emoji, case changes next to either).
  @Test func theWordsDocumentIsTheFoldedWordsOfMixedText() {
    var random = SeededRandom(seed: 0xF01D_ED)
    let pieces = [
      "a", "Z", "q", "Mx", "7", " ", "-", ".", "_", "\n", "é", "É", "e\u{301}", "\u{301}",
      "ü", "ß", "—", "\u{2019}", "東京", "😀", "ǅ", "x²", "İ",
    ]
    for _ in 0..<3_000 {
      let text = (0..<Int.random(in: 0...12, using: &random)).map { _ in
        pieces.randomElement(using: &random)!
      }.joined()
      let reference = WordSplitter.words(text).map { SearchDocuments.fold(String($0)) }
      let documents = SearchDocuments([(.title, [.text(text)])])
      #expect(
        documents.words == (reference.isEmpty ? nil : reference.joined(separator: " ")),
        "\(text.debugDescription)")
      let ascii = reference.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } }
      if !reference.isEmpty { #expect(documents.wordsAreASCII == ascii) }
    }
  }

  @Test func diacriticsAndCaseFoldInFreeTextAndModifiers() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await index.indexSearchableItems([
      item("a", [(.title, .text("Crème brûlée à Montréal"))]),
      item("b", [(.title, .text("Cre\u{300}me bru\u{302}le\u{301}e"))]),  // decomposed
      item("c", [(.title, .text("CREME"))]),
    ])
    #expect(try await identifiers(index, "creme brulee") == ["a", "b"])
    #expect(try await identifiers(index, "MONTREAL") == ["a"])
    #expect(try await identifiers(index, "title == 'crème*'c") == ["a", "b"])
    #expect(try await identifiers(index, "title == 'creme*'cd") == ["a", "b", "c"])
    #expect(try await identifiers(index, "title == 'Crème*'") == ["a", "b"])
    #expect(try await identifiers(index, "title == 'Creme*'d") == ["a", "b"])
  }

  @Test func trigramFindsSubstringsOfNames() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await index.indexSearchableItems([
      fileItem("/r/Quarterly-Report-2024.xlsx"), fileItem("/r/report.txt"),
      fileItem("/r/Rapport_Résumé.docx"), fileItem("/r/reprise.txt"),
      item("app", [(.displayName, .text("The REPORT viewer"))]),
    ])
    #expect(
      try await identifiers(index, "fileName == '*report*'c")
        == ["/r/Quarterly-Report-2024.xlsx", "/r/report.txt"])
    #expect(
      try await identifiers(index, "kMDItemFSName == '*repo*'c")
        == ["/r/Quarterly-Report-2024.xlsx", "/r/report.txt"])
    #expect(try await identifiers(index, "fileName == '*sume*'cd") == ["/r/Rapport_Résumé.docx"])
    #expect(try await identifiers(index, "displayName == '*report*'c") == ["app"])
    // Short runs cannot use trigrams; they are still answered (by a scan), exactly.
    #expect(
      try await identifiers(index, "fileName == '*re*'c")
        == ["/r/Quarterly-Report-2024.xlsx", "/r/report.txt", "/r/reprise.txt"])
  }

  /// The shapes the benchmark times must be answered from an index, not a scan of `item`.
  static let plans: [(String, String)] = [
    ("fileName == '*report*'cd", "item_trigram"),
    ("kMDItemFSName == 'IMG_1*'", "item_trigram"),
    ("fileName == 'report.pdf'", "item_trigram"),
    ("fileSize > 100000", "item_by_fileSize"),
    (
      "InRange(contentModificationDate, $time.iso('2024-01-01'), $time.iso('2024-02-01'))",
      "item_by_contentModificationDate"
    ),
    ("contentTypeTree == 'public.image'", "item_by_type"),
    ("title == 'Budget 2024'", "item_by_title"),
    ("keywords == 'travel'", "value_by_attribute"),
    ("budget report", "item_fts"),
    ("title == 'budget'wc", "item_fts"),
    ("path == '/home/u/Documents/*'", "item_by_path"),
    ("path == '/home/u/a.txt'", "item_by_path"),
  ]

  @Test(arguments: plans)
  func queriesUseIndexes(_ query: String, index name: String) async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await index.indexSearchableItems([
      fileItem("/home/u/a.txt", [(.title, .text("x")), (.keywords, .text("k"))])
    ])
    let expression = try QueryParser(registry: index.registry).parse(query)
    let (_, plan) = try await index.explain(expression, options: SearchOptions(limit: 100))
    #expect(plan.contains { $0.contains(name) }, "\(plan)")
    #expect(!plan.contains { $0 == "SCAN item" }, "\(plan)")
  }
}
