/// A query that cannot be understood, with the column where understanding stopped, so the
/// command line can show the query with a caret under the problem (and exit with status 2).
public struct QuerySyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The query as given.
  public let query: String
  /// 1-based, counted in characters (grapheme clusters); `query.count + 1` means "at the end".
  public let column: Int
  public let message: String

  public init(query: String, column: Int, message: String) {
    self.query = query
    self.column = min(max(column, 1), query.count + 1)
    self.message = message
  }

  /// Locates an internal failure, given as an offset in Unicode scalars, in characters.
  init(query: String, failure: SyntaxFailure) {
    let scalars = query.unicodeScalars
    let offset = min(max(failure.scalarOffset, 0), scalars.count)
    let index = scalars.index(scalars.startIndex, offsetBy: offset)
    // String's distance rounds an index inside a character down to that character's start.
    self.init(
      query: query, column: query.distance(from: query.startIndex, to: index) + 1,
      message: failure.message)
  }

  /// The query on one line (line breaks and tabs shown as spaces so the caret lines up), a caret
  /// under the column, then the message:
  ///
  ///     kMDItemFSSize > 10 && nosuch == 3
  ///                           ^
  ///     unknown attribute 'nosuch'
  public var rendered: String {
    var line = ""
    for character in query {
      line.append(character.isNewline || character.isWhitespace ? " " : character)
    }
    return line + "\n" + String(repeating: " ", count: column - 1) + "^\n" + message
  }

  public var description: String { rendered }
}

/// A failure inside the lexer or parser, located by Unicode scalar offset; `QueryParser` turns
/// it into a `QuerySyntaxError` with a character column.
struct SyntaxFailure: Error {
  let scalarOffset: Int
  let message: String

  init(at scalarOffset: Int, _ message: String) {
    self.scalarOffset = scalarOffset
    self.message = message
  }
}
