/// One lexical unit of a query, located by Unicode scalar offsets.
struct QueryToken: Sendable {
  enum Kind: Sendable {
    /// A bare word: an attribute name, `true`, `false`, `InRange`, or a malformed number.
    case word(String)
    /// A well-formed number, with its spelling (a text attribute compares against the spelling).
    case number(Double, spelling: String)
    case string(QuotedString)
    /// `$name` with its parenthesised argument, if any.
    case variable(VariableReference)
    case star
    case comparison(ComparisonOperator)
    /// The legacy `[cd]` after an operator.
    case bracketModifiers(TextModifiers)
    case and
    case or
    case not
    case leftParenthesis
    case rightParenthesis
    case comma
    case end
  }

  let kind: Kind
  let offset: Int

  /// How the token reads in an error message.
  var quoted: String {
    switch kind {
    case .word(let word): "'\(word)'"
    case .number(_, let spelling): "'\(spelling)'"
    case .string: "a quoted string"
    case .variable(let variable): "'$\(variable.name)'"
    case .star: "'*'"
    case .comparison(let op): "'\(op.rawValue)'"
    case .bracketModifiers: "'['"
    case .and: "'&&'"
    case .or: "'||'"
    case .not: "'!'"
    case .leftParenthesis: "'('"
    case .rightParenthesis: "')'"
    case .comma: "','"
    case .end: "the end of the query"
    }
  }
}

/// A `"…"` or `'…'` value: its pattern (unescaped `*` are wildcards), its plain text (for typing
/// as a number, date or bool; `*` kept as a character) and the modifiers written right after it.
struct QuotedString: Sendable {
  let pattern: TextPattern
  let text: String
  let modifiers: TextModifiers
  /// Where the modifier letters start, when there are any.
  let modifiersOffset: Int?
}

/// `$time.today(-10)`: the name after `$`, and the raw text between the parentheses.
struct VariableReference: Sendable {
  let name: String
  let argument: String?
  let argumentOffset: Int
}
