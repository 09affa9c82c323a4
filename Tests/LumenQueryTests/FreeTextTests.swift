import Testing

@testable import LumenQuery

/// When a query is free text, and when it is a broken expression instead.
@Suite struct FreeTextTests {
  static let freeText: [(String, [String])] = [
    ("budget report", ["budget", "report"]),
    ("  budget\treport  ", ["budget", "report"]),
    (#""quarterly budget""#, ["quarterly budget"]),
    (#""quarterly budget" 2024"#, ["quarterly budget", "2024"]),
    (#"'quarterly budget' "say \"hi\"""#, ["quarterly budget", #"say "hi""#]),
    ("don't panic", ["don't", "panic"]),
    ("title", ["title"]),
    ("résumé", ["résumé"]),
    ("budget - *", ["budget"]),
    ("* budget", ["budget"]),
    ("Paris, France", ["Paris,", "France"]),
    ("report [draft]", ["report", "[draft]"]),
    ("cost $5", ["cost", "$5"]),
    ("2024", ["2024"]),
    ("-draft", ["-draft"]),
  ]

  @Test(arguments: freeText)
  func isFreeText(_ query: String, _ terms: [String]) throws {
    #expect(try QueryParser().parse(query) == .freeText(terms))
  }

  /// Operator characters, unterminated phrases and modifiers after a phrase mean the query was
  /// meant as an expression: its error stands.
  @Test(arguments: [
    "budget = report", "cats && dogs", "cats || dogs", "!draft", "(budget)", "a < b",
    #""Paris"c"#, #""unterminated phrase"#, "*", "-", "", "budget (", "wow!",
  ])
  func isAnError(_ query: String) {
    #expect(throws: QuerySyntaxError.self) { try QueryParser().parse(query) }
  }

  @Test func constantsAreExpressionsNotWords() throws {
    #expect(try QueryParser().parse("true") == .constant(true))
    #expect(try QueryParser().parse("false") == .constant(false))
    #expect(try QueryParser().parse("true story") == .freeText(["true", "story"]))
  }
}
