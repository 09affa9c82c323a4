import Foundation
import LumenModel
import Testing

@testable import LumenQuery

/// Every way a query can be wrong, each with the column of the caret (drawn under the query in
/// the table, so the expected column is visible) and a fragment of the message.
@Suite struct ParserErrorTests {
  static let failures: [(String, String, String)] = [
    (
      "kMDItemFSSize > 10 && nosuch == 3",
      "                      ^", "unknown attribute 'nosuch'"
    ),
    (
      "nosuch == 3",
      "^", "unknown attribute 'nosuch'"
    ),
    ("", "^", "empty query"),
    ("   ", "^", "empty query"),
    (
      #"title == "abc"#,
      #"         ^"#, "unterminated string"
    ),
    (
      #"title == 'abc\'"#,
      #"         ^"#, "unterminated string"
    ),
    (
      #"title == "abc\"#,
      #"         ^"#, "unterminated string"
    ),
    (
      #"title == "a"x"#,
      #"            ^"#, "unknown modifier 'x'"
    ),
    (
      #"title == "a"cdq"#,
      #"              ^"#, "unknown modifier 'q'"
    ),
    (
      #"title ==[cx] "a""#,
      #"          ^"#, "unknown modifier 'x'"
    ),
    (
      #"title ==[c "a""#,
      #"           ^"#, "missing ']'"
    ),
    (
      #"title [c] == "a""#,
      #"      ^"#, "expected a comparison operator"
    ),
    (
      "(title == \"a\"",
      "             ^", "missing ')'"
    ),
    (
      "((true) || (false)",
      "                  ^", "missing ')'"
    ),
    (
      #"title == "a")"#,
      #"            ^"#, "expected '&&', '||' or the end of the query"
    ),
    (
      #"title == "a" junk"#,
      #"             ^"#, "expected '&&', '||' or the end of the query"
    ),
    (
      #"title == "a" & title == "b""#,
      #"             ^"#, "expected '&&'"
    ),
    (
      #"title == "a" | title == "b""#,
      #"             ^"#, "expected '||'"
    ),
    (
      #"title == "a" && "#,
      #"                ^"#, "found the end of the query"
    ),
    (
      "&& true",
      "^", "expected an attribute name"
    ),
    (
      #"title == "a" || )"#,
      #"                ^"#, "expected an attribute name"
    ),
    (
      #""Paris"c"#,
      #"^"#, "expected an attribute name before the value"
    ),
    (
      "hello!",
      "^", "unknown attribute 'hello'"
    ),
    (
      "title !",
      "      ^", "expected a comparison operator"
    ),
    (
      "10 > pageCount",
      "^", "expected an attribute name"
    ),
    (
      "title ==",
      "        ^", "expected a value"
    ),
    (
      "title == == \"a\"",
      "         ^", "expected a value"
    ),
    (
      "title = = \"a\"",
      "        ^", "expected a value"
    ),
    (
      "* == *",
      "     ^", "expected a value"
    ),
    (
      "title == abc",
      "         ^", "unquoted value 'abc'"
    ),
    (
      "pageCount > 12abc",
      "            ^", "invalid number '12abc'"
    ),
    (
      "pageCount > 1.2.3",
      "            ^", "invalid number '1.2.3'"
    ),
    (
      "pageCount > 1e999",
      "            ^", "invalid number '1e999'"
    ),
    (
      "pageCount > -",
      "            ^", "unexpected character '-'"
    ),
    (
      #"pageCount > "abc""#,
      #"            ^"#, "'abc' is not a number"
    ),
    (
      #"pageCount > "1*""#,
      #"            ^"#, "wildcards apply only to text"
    ),
    (
      #"pageCount == "1"c"#,
      #"                ^"#, "modifiers (c, d, w, t) apply only to text"
    ),
    (
      #"pageCount ==[c] 1"#,
      #"            ^"#, "modifiers (c, d, w, t) apply only to text"
    ),
    (
      "pageCount == true",
      "             ^", "true is a boolean"
    ),
    (
      "pageCount == $time.now",
      "             ^", "a $time value is a date"
    ),
    (
      "flashOn > true",
      "          ^", "only == and != compare"
    ),
    (
      "flashOn == 2",
      "           ^", "2 is not 1 or 0"
    ),
    (
      #"flashOn == "maybe""#,
      #"           ^"#, "'maybe' is not true, false, 1 or 0"
    ),
    (
      #"title < "a*""#,
      #"        ^"#, "wildcards work only with == and !="
    ),
    (
      #"title < "a"w"#,
      #"           ^"#, "word matching (w, t) works only with == and !="
    ),
    (
      #"title >=[t] "a""#,
      #"        ^"#, "word matching (w, t) works only with == and !="
    ),
    (
      #"contentCreationDate > "yesterday""#,
      #"                      ^"#, "'yesterday' is not an ISO-8601 date"
    ),
    (
      #"contentCreationDate > "2024-13-01""#,
      #"                      ^"#, "is not an ISO-8601 date"
    ),
    (
      "contentCreationDate > $time.tomorrow",
      "                            ^", "unknown $time function 'tomorrow'"
    ),
    (
      "contentCreationDate > $date.now",
      "                      ^", "unknown variable '$date.now'"
    ),
    (
      "contentCreationDate > $",
      "                      ^", "unknown variable '$'"
    ),
    (
      "contentCreationDate > $time.today(-1",
      "                                    ^", "missing ')' to close '$time.today('"
    ),
    (
      "contentCreationDate > $time.today(1.5)",
      "                                  ^", "whole number of days"
    ),
    (
      "contentCreationDate > $time.this_week( x )",
      "                                       ^", "expected a number of weeks"
    ),
    (
      "contentCreationDate > $time.today(99999999)",
      "                                  ^", "$time offset out of range"
    ),
    (
      "contentCreationDate > $time.iso()",
      "                                ^", "$time.iso needs a date"
    ),
    (
      "contentCreationDate > $time.iso(garbage)",
      "                                ^", "invalid ISO-8601 date 'garbage'"
    ),
    (
      "contentCreationDate > $time.iso('2024-01-01)",
      "                                            ^", "missing ')'"
    ),
    (
      "contentCreationDate > $time.iso('2024-01-01) x",
      "                                              ^", "missing ')'"
    ),
    (
      "title == $time.today",
      "         ^", "a $time value is a date, but 'title' holds text"
    ),
    (
      "InRange()",
      "        ^", "InRange takes three arguments"
    ),
    (
      "InRange(pageCount)",
      "                 ^", "InRange takes three arguments"
    ),
    (
      "InRange(pageCount, 1)",
      "                    ^", "InRange takes three arguments"
    ),
    (
      "InRange(pageCount, 1, 2, 3)",
      "                       ^", "InRange takes three arguments"
    ),
    (
      "InRange(pageCount, 1; 2)",
      "                    ^", "unexpected character ';'"
    ),
    (
      "InRange(pageCount 1, 2)",
      "                  ^", "expected ',' in InRange"
    ),
    (
      "InRange(pageCount, 1, 2",
      "                       ^", "missing ')' to close InRange"
    ),
    (
      "InRange(nosuch, 1, 2)",
      "        ^", "unknown attribute 'nosuch'"
    ),
    (
      "InRange(flashOn, 0, 1)",
      "                 ^", "InRange needs a text, number or date attribute"
    ),
    (
      #"InRange(title, "a*", "b")"#,
      #"               ^"#, "wildcards are not allowed in InRange"
    ),
    (
      #"InRange(title, "a"c, "b")"#,
      #"                  ^"#, "modifiers are not allowed in InRange"
    ),
    (
      "InRange(1, 2, 3)",
      "        ^", "expected an attribute name or '*'"
    ),
    (
      #"title == "a" && title == "b" # comment"#,
      #"                             ^"#, "unexpected character '#'"
    ),
  ]

  @Test(arguments: failures)
  func reportsColumn(_ query: String, _ caret: String, _ fragment: String) throws {
    let error = try #require(throws: QuerySyntaxError.self) { try parisParser.parse(query) }
    let expectedColumn = try #require(caret.firstIndex(of: "^")).utf16Offset(in: caret) + 1
    #expect(error.column == expectedColumn, "\(error.rendered)")
    #expect(error.message.contains(fragment), "\(error.message)")
    #expect(error.query == query)
  }

  @Test func rendersQueryCaretAndMessage() throws {
    let error = try #require(throws: QuerySyntaxError.self) {
      try QueryParser().parse("kMDItemFSSize > 10 && nosuch == 3")
    }
    #expect(
      error.rendered == """
        kMDItemFSSize > 10 && nosuch == 3
                              ^
        unknown attribute 'nosuch'
        """)
    #expect(error.description == error.rendered)
  }

  @Test func rendersLineBreaksAsSpacesSoTheCaretLinesUp() throws {
    let error = try #require(throws: QuerySyntaxError.self) {
      try QueryParser().parse("pageCount > 1 &&\n\tnosuch == 3")
    }
    #expect(error.column == 19)
    #expect(
      error.rendered.split(separator: "\n", omittingEmptySubsequences: false) == [
        "pageCount > 1 &&  nosuch == 3", "                  ^", "unknown attribute 'nosuch'",
      ])
  }

  /// Columns count characters, so a decomposed "é" (two scalars) is one column, like a
  /// precomposed one.
  @Test(arguments: ["title == \"é\" && nosuch == 1", "title == \"e\u{301}\" && nosuch == 1"])
  func columnsCountCharacters(_ query: String) throws {
    let error = try #require(throws: QuerySyntaxError.self) { try QueryParser().parse(query) }
    #expect(error.column == 17)
    #expect(error.message == "unknown attribute 'nosuch'")
  }

  @Test func unknownAttributeWithAccentsIsNamed() throws {
    let error = try #require(throws: QuerySyntaxError.self) {
      try QueryParser().parse("pageCount > 1 && tïtle == \"a\"")
    }
    #expect(error.column == 18)
    #expect(error.message == "unknown attribute 'tïtle'")
  }

  @Test(arguments: [
    (String(repeating: "(", count: 201) + "true" + String(repeating: ")", count: 201), 201),
    (String(repeating: "!", count: 201) + "true", 201),
    (String(repeating: "(!", count: 101) + "true", 201),
  ])
  func nestingIsCapped(_ query: String, _ column: Int) throws {
    let error = try #require(throws: QuerySyntaxError.self) { try QueryParser().parse(query) }
    #expect(error.column == column)
    #expect(error.message.contains("nested too deeply"))
  }

  @Test func nestingUpToTheCapParses() throws {
    let query = String(repeating: "(", count: 200) + "true" + String(repeating: ")", count: 200)
    #expect(try QueryParser().parse(query) == .constant(true))
  }

  @Test func columnIsClampedIntoTheQuery() {
    let error = QuerySyntaxError(query: "abc", column: 99, message: "m")
    #expect(error.column == 4)
    #expect(QuerySyntaxError(query: "abc", column: -3, message: "m").column == 1)
  }
}
