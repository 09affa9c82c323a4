import Foundation
import LumenModel
import LumenQuery
import Testing

@testable import LumenStore

/// Each operator and modifier, through the parser, on a small fixed corpus.
@Suite struct QueryOperatorTests {
  static let corpus: [SearchableItem] = [
    fileItem(
      "/home/u/Photos/Paris-France.JPG",
      [
        (.pixelWidth, .number(4000)), (.fileSize, .number(2_000_000)),
        (.contentType, .text("public.jpeg")),
        (.contentTypeTree, .text("public.jpeg")), (.contentTypeTree, .text("public.image")),
        (.contentTypeTree, .text("public.data")), (.contentTypeTree, .text("public.item")),
        (.contentCreationDate, .date(ISO8601Dates.parse("2024-03-10T12:00:00Z")!)),
        (.flashOn, .bool(true)),
      ]),
    fileItem(
      "/home/u/Documents/Résumé.pdf",
      [
        (.pageCount, .number(2)), (.fileSize, .number(80_000)),
        (.authors, .text("Tim Cook")), (.authors, .text("Steve Jobs")),
        (.contentType, .text("com.adobe.pdf")),
        (.contentTypeTree, .text("com.adobe.pdf")), (.contentTypeTree, .text("public.data")),
        (.contentCreationDate, .date(ISO8601Dates.parse("2023-01-05T08:00:00Z")!)),
        (.flashOn, .bool(false)),
      ]),
    fileItem(
      "/home/u/Documents/Comparison.txt",
      [
        (.fileSize, .number(1200)), (.title, .text("A comparison of budgets")),
        (.textContent, .text("The quarterly budget report for Paris and Lyon")),
      ]),
    item("note-1", [(.title, .text("I love Paris")), (.keywords, .text("travel"))]),
    item("note-2", [(.title, .text("MyWindowClass")), (.keywords, .text("code"))]),
    item("note-3", [(.title, .text("NSWindow")), (.comment, .text("ÉCOLE"))]),
  ]

  static let cases: [(String, [String])] = [
    // == != < > <= >= on numbers
    ("kMDItemFSSize == 1200", ["/home/u/Documents/Comparison.txt"]),
    ("fileSize != 1200", ["/home/u/Documents/Résumé.pdf", "/home/u/Photos/Paris-France.JPG"]),
    ("fileSize < 80000", ["/home/u/Documents/Comparison.txt"]),
    ("fileSize <= 80000", ["/home/u/Documents/Comparison.txt", "/home/u/Documents/Résumé.pdf"]),
    ("fileSize > 80000", ["/home/u/Photos/Paris-France.JPG"]),
    ("fileSize >= 80000", ["/home/u/Documents/Résumé.pdf", "/home/u/Photos/Paris-France.JPG"]),
    // A missing attribute never matches, not even !=.
    ("pageCount != 5", ["/home/u/Documents/Résumé.pdf"]),
    ("!(pageCount == 5)", Self.all),
    // InRange on numbers and dates.
    (
      "InRange(fileSize, 1000, 80000)",
      ["/home/u/Documents/Comparison.txt", "/home/u/Documents/Résumé.pdf"]
    ),
    (
      "InRange(contentCreationDate, $time.iso('2024-01-01T00:00:00Z'), $time.iso('2024-12-31T00:00:00Z'))",
      ["/home/u/Photos/Paris-France.JPG"]
    ),
    ("contentCreationDate < $time.iso('2024-01-01T00:00:00Z')", ["/home/u/Documents/Résumé.pdf"]),
    // Booleans.
    ("flashOn == true", ["/home/u/Photos/Paris-France.JPG"]),
    ("flashOn == false", ["/home/u/Documents/Résumé.pdf"]),
    // Text equality, case and diacritics.
    ("title == 'NSWindow'", ["note-3"]),
    ("title == 'nswindow'", []),
    ("title == 'nswindow'c", ["note-3"]),
    ("comment == 'ecole'c", []),
    ("comment == 'ecole'cd", ["note-3"]),
    ("comment == 'ÉCOLE'd", ["note-3"]),
    ("comment == 'Ecole'd", []),
    ("fileName == 'resume.pdf'cd", ["/home/u/Documents/Résumé.pdf"]),
    ("fileName ==[cd] 'resume.pdf'", ["/home/u/Documents/Résumé.pdf"]),
    // Wildcards.
    ("fileName == 'Paris*'", ["/home/u/Photos/Paris-France.JPG"]),
    ("fileName == '*.pdf'", ["/home/u/Documents/Résumé.pdf"]),
    (
      "fileName == '*rIs*'c",
      ["/home/u/Documents/Comparison.txt", "/home/u/Photos/Paris-France.JPG"]
    ),
    ("kMDItemFSName == '*SUM*'cd", ["/home/u/Documents/Résumé.pdf"]),
    ("fileName == 'C*son.*'", ["/home/u/Documents/Comparison.txt"]),
    // Word matching: a lower→upper change is a boundary; Comparison is not Paris.
    ("title == 'Paris'wc", ["note-1"]),
    ("fileName == 'paris'wc", ["/home/u/Photos/Paris-France.JPG"]),
    ("title == 'Window'w", ["note-2"]),
    ("title == 'budget*'wc", ["/home/u/Documents/Comparison.txt"]),
    ("textContent == 'budget report'wc", ["/home/u/Documents/Comparison.txt"]),
    ("textContent == 'report budget'wc", []),
    ("title == 'paris'tc", ["note-1"]),
    // Multi-valued: any value.
    ("authors == 'Steve*'", ["/home/u/Documents/Résumé.pdf"]),
    ("authorNames == 'jobs'wc", ["/home/u/Documents/Résumé.pdf"]),
    ("authors != 'Tim Cook'", ["/home/u/Documents/Résumé.pdf"]),
    (
      "(authorNames == 'Tim'wc || authorNames == 'Steve'wc) && fileSize > 1000",
      ["/home/u/Documents/Résumé.pdf"]
    ),
    // Content types and their tree.
    ("contentTypeTree == 'public.image'", ["/home/u/Photos/Paris-France.JPG"]),
    (
      "kMDItemContentTypeTree == 'public.data'",
      ["/home/u/Documents/Résumé.pdf", "/home/u/Photos/Paris-France.JPG"]
    ),
    ("contentType == 'com.adobe.*'", ["/home/u/Documents/Résumé.pdf"]),
    // Paths.
    (
      "path == '/home/u/Documents/*'",
      ["/home/u/Documents/Comparison.txt", "/home/u/Documents/Résumé.pdf"]
    ),
    ("kMDItemPath == '/home/u/Photos/Paris-France.JPG'", ["/home/u/Photos/Paris-France.JPG"]),
    (
      "path == '/home/u/Doc*'",
      ["/home/u/Documents/Comparison.txt", "/home/u/Documents/Résumé.pdf"]
    ),
    // `*` over searchable-by-default attributes.
    ("* == 'travel'", ["note-1"]),
    ("* == 'budget*'cd", []),
    ("* == '*budget*'cd", ["/home/u/Documents/Comparison.txt"]),
    (
      "* == 'paris'wcd",
      ["/home/u/Documents/Comparison.txt", "/home/u/Photos/Paris-France.JPG", "note-1"]
    ),
    // Boolean structure and constants.
    ("keywords == 'code' || keywords == 'travel'", ["note-1", "note-2"]),
    ("keywords == 'code' && title == 'My*'", ["note-2"]),
    ("!(keywords == 'code') && keywords == '*'", ["note-1"]),
    ("true", Self.all),
    ("false", []),
    // Free text: every word somewhere, the last as a prefix, case and diacritics folded.
    ("paris", ["/home/u/Documents/Comparison.txt", "/home/u/Photos/Paris-France.JPG", "note-1"]),
    ("budget rep", ["/home/u/Documents/Comparison.txt"]),
    ("resume", ["/home/u/Documents/Résumé.pdf"]),
    ("ecole", ["note-3"]),
    ("window", ["note-2"]),
  ]

  static var all: [String] { corpus.map(\.uniqueIdentifier).sorted() }

  @Test(arguments: cases)
  func query(_ query: String, expected: [String]) async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await index.indexSearchableItems(Self.corpus)
    let parser = QueryParser(registry: index.registry)
    let expression = try parser.parse(query)
    let evaluator = QueryEvaluator(registry: index.registry)
    let reference = Self.corpus.filter { evaluator.matches(expression, $0.attributeSet) }
      .map(\.uniqueIdentifier).sorted()
    #expect(reference == expected.sorted(), "the table disagrees with QueryEvaluator")
    #expect(try await identifiers(index, query) == expected.sorted())
    #expect(try await index.count(expression) == expected.count)
  }
}
