import Foundation
import LumenModel
import Testing

@testable import LumenQuery

/// Apple's documented examples (Core Spotlight "Searching for information in your app", the
/// Query Expression Syntax guide, mdfind usage) and the rest of the grammar, each with the exact
/// AST it must produce.
@Suite struct ParserExampleTests {
  static let examples: [(String, QueryExpression)] = [
    // Core Spotlight's worked example.
    (
      #"(authorNames == "Tim"wc || authorNames == "Steve"wc) && InRange(completionDate, $time.today(-10), $time.today)"#,
      .and(
        .or(
          compare(.authors, .equal, text("Tim"), [.w, .c]),
          compare(.authors, .equal, text("Steve"), [.w, .c])),
        .inRange(
          attribute: .key(.completionDate), lower: .date(date("2024-03-04T23:00:00Z")),
          upper: .date(date("2024-03-14T23:00:00Z"))))
    ),
    // Core Spotlight's semantics table.
    (#"title == "Paris""#, compare(.title, .equal, text("Paris"))),
    (#"title == "Paris"c"#, compare(.title, .equal, text("Paris"), .c)),
    (#"title == "Paris"wc"#, compare(.title, .equal, text("Paris"), [.w, .c])),
    (
      #"title == "paris*""#,
      compare(.title, .equal, .text(TextPattern(segments: [.literal("paris"), .wildcard])))
    ),
    (
      #"title == "*paris*""#,
      compare(
        .title, .equal, .text(TextPattern(segments: [.wildcard, .literal("paris"), .wildcard])))
    ),
    (
      #"title == "pa*ris""#,
      compare(
        .title, .equal, .text(TextPattern(segments: [.literal("pa"), .wildcard, .literal("ris")])))
    ),
    // Query Expression Syntax guide and mdfind.
    (
      "kMDItemNumberOfPages > 10 && authors == 'knuth*'c",
      .and(
        compare(.pageCount, .greater, .number(10)), compare(.authors, .equal, text("knuth*"), .c))
    ),
    (
      #"* == "budget*"cd"#,
      .comparison(
        Comparison(
          attribute: .anySearchable, op: .equal, value: text("budget*"), modifiers: [.c, .d]))
    ),
    (
      "kMDItemContentTypeTree == 'public.image'",
      compare(.contentTypeTree, .equal, text("public.image"))
    ),
    (
      #"contentTypeTree == "public.image""#, compare(.contentTypeTree, .equal, text("public.image"))
    ),
    (#"kMDItemFSName ==[cd] "résumé*""#, compare(.fileName, .equal, text("résumé*"), [.c, .d])),
    (#"kMDItemAuthors ==[c] "Steve""#, compare(.authors, .equal, text("Steve"), .c)),
    (#"kMDItemAuthors !=[c] "Steve""#, compare(.authors, .notEqual, text("Steve"), .c)),
    (
      #"kMDItemAuthors ==[ c d ] "Steve"w"#, compare(.authors, .equal, text("Steve"), [.c, .d, .w])
    ),
    (#"kMDItemTextContent == "Paris"cd"#, compare(.textContent, .equal, text("Paris"), [.c, .d])),
    (#"kMDItemTextContent == "Paris"t"#, compare(.textContent, .equal, text("Paris"), .t)),
    (#"kMDItemFSName == "*.jpg"c"#, compare(.fileName, .equal, text("*.jpg"), .c)),
    (#"kMDItemAuthors == "*Steve*""#, compare(.authors, .equal, text("*Steve*"))),
    (#"kMDItemContentType == "public.jpeg""#, compare(.contentType, .equal, text("public.jpeg"))),
    ("kMDItemPixelWidth >= 1024", compare(.pixelWidth, .greaterOrEqual, .number(1024))),
    ("kMDItemFSSize = 10", compare(.fileSize, .equal, .number(10))),
    ("kMDItemFSSize <= 10", compare(.fileSize, .lessOrEqual, .number(10))),
    ("kMDItemFSSize < 10", compare(.fileSize, .less, .number(10))),
    ("kMDItemFSSize != 10", compare(.fileSize, .notEqual, .number(10))),
    (
      #"kMDItemDisplayName == "*.pdf"c && kMDItemFSSize > 1000000"#,
      .and(
        compare(.displayName, .equal, text("*.pdf"), .c),
        compare(.fileSize, .greater, .number(1_000_000)))
    ),
    (
      "kMDItemContentModificationDate >= $time.today(-2)",
      compare(.contentModificationDate, .greaterOrEqual, .date(date("2024-03-12T23:00:00Z")))
    ),
    (
      "kMDItemLastUsedDate >= $time.this_month",
      compare(.lastUsedDate, .greaterOrEqual, .date(date("2024-02-29T23:00:00Z")))
    ),
    // Numbers: integer, decimal, negative, exponent, quoted.
    ("pageCount >= -1.5e2", compare(.pageCount, .greaterOrEqual, .number(-150))),
    ("latitude > .5", compare(.latitude, .greater, .number(0.5))),
    ("latitude > +2.5E+1", compare(.latitude, .greater, .number(25))),
    (#"pageCount == "12""#, compare(.pageCount, .equal, .number(12))),
    (#"pageCount == ' 12 '"#, compare(.pageCount, .equal, .number(12))),
    // Dates: ISO-8601 strings (local when zoneless), Apple-epoch seconds, $time.iso.
    (
      #"contentCreationDate >= "2024-01-01T00:00:00Z""#,
      compare(.contentCreationDate, .greaterOrEqual, .date(date("2024-01-01T00:00:00Z")))
    ),
    (
      #"contentCreationDate >= "2024-01-01""#,
      compare(.contentCreationDate, .greaterOrEqual, .date(date("2023-12-31T23:00:00Z")))
    ),
    (
      "contentCreationDate < 0",
      compare(.contentCreationDate, .less, .date(date("2001-01-01T00:00:00Z")))
    ),
    (
      "contentCreationDate < 86400.5",
      compare(.contentCreationDate, .less, .date(Date(timeIntervalSinceReferenceDate: 86400.5)))
    ),
    (
      "contentCreationDate > $time.iso(2024-01-01T00:00:00Z)",
      compare(.contentCreationDate, .greater, .date(date("2024-01-01T00:00:00Z")))
    ),
    (
      "contentCreationDate > $time.iso('2024-01-01T00:00:00Z')",
      compare(.contentCreationDate, .greater, .date(date("2024-01-01T00:00:00Z")))
    ),
    (
      #"contentCreationDate > $time.iso("2024-06-01T12:00:00+02:00")"#,
      compare(.contentCreationDate, .greater, .date(date("2024-06-01T10:00:00Z")))
    ),
    (
      "contentCreationDate > $time.iso( 2024-06-01 )",
      compare(.contentCreationDate, .greater, .date(date("2024-05-31T22:00:00Z")))
    ),
    // Booleans.
    ("flashOn == true", compare(.flashOn, .equal, .bool(true))),
    ("flashOn == FALSE", compare(.flashOn, .equal, .bool(false))),
    ("flashOn == 1", compare(.flashOn, .equal, .bool(true))),
    (#"flashOn != "false""#, compare(.flashOn, .notEqual, .bool(false))),
    // Text: a bare number is its spelling; escapes; ordering with c/d.
    ("title == 007", compare(.title, .equal, text("007"))),
    (#"title == "a\*b""#, compare(.title, .equal, .text(.literal("a*b")))),
    (
      #"title == "say \"hi\" \\ 'there'""#,
      compare(.title, .equal, .text(.literal(#"say "hi" \ 'there'"#)))
    ),
    (#"title == 'it\'s'"#, compare(.title, .equal, .text(.literal("it's")))),
    (#"title < "m"cd"#, compare(.title, .less, text("m"), [.c, .d])),
    (#"title == """#, compare(.title, .equal, .text(TextPattern(segments: [])))),
    // Boolean structure.
    ("true", .constant(true)),
    ("false", .constant(false)),
    ("TRUE", .constant(true)),
    ("true && false || true", .or(.and(.constant(true), .constant(false)), .constant(true))),
    ("true || false && true", .or(.constant(true), .and(.constant(false), .constant(true)))),
    ("(true || false) && true", .and(.or(.constant(true), .constant(false)), .constant(true))),
    ("!true", .not(.constant(true))),
    ("!!true", .not(.not(.constant(true)))),
    (#"!title == "x""#, .not(compare(.title, .equal, text("x")))),
    (#"!(title == "x")"#, .not(compare(.title, .equal, text("x")))),
    ("((((true))))", .constant(true)),
    (
      "true && false && true && false",
      .and(.and(.constant(true), .constant(false)), .and(.constant(true), .constant(false)))
    ),
    (
      "true||false||true",
      .or(.or(.constant(true), .constant(false)), .constant(true))
    ),
    // InRange: case-insensitive name, every value type but bool.
    (
      "InRange(pageCount, 1, 10)",
      .inRange(attribute: .key(.pageCount), lower: .number(1), upper: .number(10))
    ),
    (
      "inrange ( kMDItemNumberOfPages,1,10 )",
      .inRange(attribute: .key(.pageCount), lower: .number(1), upper: .number(10))
    ),
    (
      #"INRANGE(title, "a", "m")"#,
      .inRange(attribute: .key(.title), lower: text("a"), upper: text("m"))
    ),
    (
      #"InRange(*, "a", "m")"#,
      .inRange(attribute: .anySearchable, lower: text("a"), upper: text("m"))
    ),
    (
      #"InRange(contentCreationDate, "2024-01-01T00:00:00Z", $time.now)"#,
      .inRange(
        attribute: .key(.contentCreationDate), lower: .date(date("2024-01-01T00:00:00Z")),
        upper: .date(date("2024-03-15T09:30:00Z")))
    ),
    // Whitespace is free, including none at all and line breaks.
    (
      "pageCount>10&&pageCount<20",
      .and(compare(.pageCount, .greater, .number(10)), compare(.pageCount, .less, .number(20)))
    ),
    ("pageCount\n>\t10", compare(.pageCount, .greater, .number(10))),
  ]

  @Test(arguments: examples)
  func parses(_ query: String, _ expected: QueryExpression) throws {
    #expect(try parisParser.parse(query) == expected)
  }

  @Test func customKeysResolve() throws {
    let score = try AttributeKey.custom("com_example_score", valueType: .number)
    let place = try AttributeKey.custom("schema.Event.location", searchableByDefault: true)
    let registry = try AttributeRegistry.builtIn.adding([score, place])
    let parser = QueryParser(registry: registry, now: date("2024-03-15T09:30:00Z"), timeZone: paris)
    #expect(
      try parser.parse(#"com_example_score > 3 && schema.Event.location == "Paris"c"#)
        == .and(compare(score, .greater, .number(3)), compare(place, .equal, text("Paris"), .c)))
    #expect(throws: QuerySyntaxError.self) { try QueryParser().parse("com_example_score > 3") }
  }

  @Test func unsearchableKeysAreRefused() throws {
    let hidden = try AttributeKey.custom("secret_note", searchable: false)
    let parser = QueryParser(registry: try AttributeRegistry.builtIn.adding([hidden]))
    let error = try #require(throws: QuerySyntaxError.self) {
      try parser.parse(#"secret_note == "x""#)
    }
    #expect(error.column == 1)
    #expect(error.message.contains("not searchable"))
  }

  @Test func longChainsStayShallow() throws {
    let query = (0..<5000).map { "pageCount == \($0)" }.joined(separator: " || ")
    let expression = try QueryParser().parse(query)
    #expect(depth(expression) <= 14)
    #expect(QueryEvaluator().matches(expression, AttributeSet([(.pageCount, .number(4999))])))
    #expect(!QueryEvaluator().matches(expression, AttributeSet([(.pageCount, .number(5000))])))
  }

  private func depth(_ expression: QueryExpression) -> Int {
    switch expression {
    case .and(let l, let r), .or(let l, let r): 1 + max(depth(l), depth(r))
    case .not(let e): 1 + depth(e)
    default: 1
    }
  }
}
