import Foundation
import LumenModel
import Testing

@testable import LumenQuery

/// The reference semantics, on four items, for queries written in the language.
@Suite struct QueryEvaluatorTests {
  static let report = AttributeSet([
    (.title, .text("Quarterly Budget Report")),
    (.authors, .text("Tim Cook")), (.authors, .text("Steve Jobs")),
    (.pageCount, .number(12)),
    (.contentCreationDate, .date(date("2024-03-10T09:00:00Z"))),
    (.completionDate, .date(date("2024-03-12T16:00:00Z"))),
    (.fileName, .text("budget-2024.pdf")),
    (.contentTypeTree, .text("com.adobe.pdf")), (.contentTypeTree, .text("public.data")),
    (.contentTypeTree, .text("public.item")), (.contentTypeTree, .text("public.content")),
    (.keywords, .text("finance")), (.keywords, .text("q1")),
    (.path, .text("/home/ann/budget-2024.pdf")),
  ])
  static let photo = AttributeSet([
    (.fileName, .text("paris-france.jpg")),
    (.pixelWidth, .number(4000)),
    (.flashOn, .bool(true)),
    (.city, .text("Paris")),
    (.contentTypeTree, .text("public.jpeg")), (.contentTypeTree, .text("public.image")),
    (.contentTypeTree, .text("public.data")), (.contentTypeTree, .text("public.item")),
  ])
  static let note = AttributeSet([
    (.title, .text("Comparison of résumé styles")),
    (.textContent, .text("I love Paris in spring")),
    (.contentCreationDate, .date(date("2023-12-31T22:30:00Z"))),  // 23:30 in Paris
  ])
  static let bare = AttributeSet([(.path, .text("/tmp/x")), (.fileSize, .number(0))])
  static let items = [report, photo, note, bare]

  /// (query, expected for [report, photo, note, bare])
  static let cases: [(String, [Bool])] = [
    ("true", [true, true, true, true]),
    ("false", [false, false, false, false]),
    (#"title == "Paris"wc"#, [false, false, false, false]),
    (#"* == "Paris"wc"#, [false, true, true, false]),
    (#"* == "paris*"cd"#, [false, true, false, false]),
    (#"* == "*paris*"c"#, [false, true, true, false]),
    (#"* == "*paris*""#, [false, true, true, false]),  // "Comparison"
    (#"* != "Paris""#, [true, true, true, false]),
    ("kMDItemContentTypeTree == 'public.image'", [false, true, false, false]),
    ("kMDItemContentTypeTree == 'public.data'", [true, true, false, false]),
    ("kMDItemContentTypeTree != 'public.data'", [true, true, false, false]),
    ("!(kMDItemContentTypeTree == 'public.data')", [false, false, true, true]),
    ("pageCount != 5", [true, false, false, false]),
    ("!(pageCount == 5)", [true, true, true, true]),
    ("pageCount > 10 && pageCount <= 12", [true, false, false, false]),
    ("pageCount >= 13 || pageCount < 12", [false, false, false, false]),
    (#"keywords == "finance""#, [true, false, false, false]),
    (#"keywords != "finance""#, [true, false, false, false]),
    (#"keywords == "FINANCE"c"#, [true, false, false, false]),
    (
      #"(authorNames == "Tim"wc || authorNames == "Steve"wc) && InRange(completionDate, $time.today(-10), $time.today)"#,
      [true, false, false, false]
    ),
    (#"authors == "steve"wc && authors == "Cook"w"#, [true, false, false, false]),
    (#"authors == "Tim Cook""#, [true, false, false, false]),
    (#"authors == "Tim""#, [false, false, false, false]),
    ("InRange(pageCount, 12, 20)", [true, false, false, false]),
    ("InRange(pageCount, 1, 12)", [true, false, false, false]),
    ("InRange(pageCount, 13, 20)", [false, false, false, false]),
    ("InRange(contentCreationDate, $time.this_year, $time.now)", [true, false, false, false]),
    ("contentCreationDate < $time.iso(2024-01-01)", [false, false, true, false]),
    (#"contentCreationDate >= "2024-01-01""#, [true, false, false, false]),
    ("contentCreationDate > 0", [true, false, true, false]),
    (#"title < "R""#, [true, false, true, false]),
    (#"title > "q""#, [false, false, false, false]),
    (#"title > "q"c"#, [true, false, false, false]),
    (#"InRange(title, "C", "Qz")"#, [true, false, true, false]),
    (#"fileName == "*.JPG"c"#, [false, true, false, false]),
    (#"fileName == "*.jpg""#, [false, true, false, false]),
    (#"fileName == "budget*" && fileName == "*.pdf""#, [true, false, false, false]),
    (#"title == "*resume*"cd"#, [false, false, true, false]),
    (#"title == "*resume*"c"#, [false, false, false, false]),
    ("flashOn == true", [false, true, false, false]),
    ("flashOn != true", [false, false, false, false]),
    ("flashOn == 0", [false, false, false, false]),
    ("fileSize == 0", [false, false, false, true]),
    ("fileSize != 1", [false, false, false, true]),
    ("pixelWidth >= 1024 && !(flashOn == false)", [false, true, false, false]),
    // Free text: every term, word-prefix, case- and diacritic-insensitive.
    ("budget report", [true, false, false, false]),
    ("budg rep", [true, false, false, false]),
    (#""budget report""#, [true, false, false, false]),
    (#""report budget""#, [false, false, false, false]),
    ("paris", [false, true, true, false]),
    ("PARIS france", [false, true, false, false]),
    ("resume", [false, false, true, false]),
    ("love spring", [false, false, true, false]),
    ("2024", [true, false, false, false]),
    ("steve", [true, false, false, false]),
    ("finance", [true, false, false, false]),  // keywords are searchable by default
    ("home", [false, false, false, false]),  // path is not
  ]

  @Test(arguments: cases)
  func evaluates(_ query: String, _ expected: [Bool]) throws {
    let expression = try parisParser.parse(query)
    let evaluator = QueryEvaluator()
    #expect(Self.items.map { evaluator.matches(expression, $0) } == expected)
  }

  /// ASTs the parser would never produce (another type than the attribute's) match nothing.
  @Test func mismatchedTypesNeverMatch() {
    let evaluator = QueryEvaluator()
    let mismatched: [QueryExpression] = [
      compare(.pageCount, .equal, text("12")),
      compare(.pageCount, .notEqual, .date(Date())),
      compare(.title, .less, .number(3)),
      compare(.flashOn, .greater, .bool(false)),
      compare(.title, .less, text("Z*")),
      .inRange(attribute: .key(.pageCount), lower: text("1"), upper: .number(20)),
    ]
    for expression in mismatched {
      #expect(!evaluator.matches(expression, Self.report), "\(expression)")
      #expect(!evaluator.matches(expression, Self.photo), "\(expression)")
    }
  }

  @Test func freeTextTermsWithoutWordsAreIgnored() {
    let evaluator = QueryEvaluator()
    #expect(evaluator.matches(.freeText(["--", "budget"]), Self.report))
    #expect(evaluator.matches(.freeText([]), Self.bare))
  }

  @Test func customSearchableKeysJoinStarAndFreeText() throws {
    let venue = try AttributeKey.custom("com_example_venue", searchableByDefault: true)
    let registry = try AttributeRegistry.builtIn.adding([venue])
    let item = AttributeSet([(venue, .text("Olympia Hall"))])
    let parser = QueryParser(registry: registry)
    #expect(QueryEvaluator(registry: registry).matches(try parser.parse("olymp"), item))
    #expect(QueryEvaluator(registry: registry).matches(try parser.parse(#"* == "Olympia*""#), item))
    #expect(!QueryEvaluator().matches(try parser.parse("olymp"), item))
  }
}
