/// Cuts a query into tokens on demand. It works on Unicode scalars (never on grapheme clusters,
/// so a combining mark typed after a quote cannot swallow the quote) and never looks back;
/// every failure carries the scalar offset where it happened.
struct QueryLexer {
  let scalars: [Unicode.Scalar]
  private(set) var position = 0

  init(_ text: String) {
    scalars = Array(text.unicodeScalars)
  }

  mutating func next() throws(SyntaxFailure) -> QueryToken {
    skipWhitespace()
    let start = position
    guard let scalar = peek() else { return QueryToken(kind: .end, offset: start) }
    let kind: QueryToken.Kind
    switch scalar {
    case "\"", "'": kind = .string(try quotedString())
    case "$": kind = .variable(try variable())
    case "[": kind = .bracketModifiers(try bracketModifiers())
    case "(":
      position += 1
      kind = .leftParenthesis
    case ")":
      position += 1
      kind = .rightParenthesis
    case ",":
      position += 1
      kind = .comma
    case "*":
      position += 1
      kind = .star
    case "=":
      position += 1
      _ = consume("=")  // `=` alone is accepted as `==`, as Samba does.
      kind = .comparison(.equal)
    case "!":
      position += 1
      kind = consume("=") ? .comparison(.notEqual) : .not
    case "<":
      position += 1
      kind = .comparison(consume("=") ? .lessOrEqual : .less)
    case ">":
      position += 1
      kind = .comparison(consume("=") ? .greaterOrEqual : .greater)
    case "&", "|":
      position += 1
      guard consume(scalar) else {
        throw SyntaxFailure(
          at: start, "expected '\(scalar)\(scalar)'; a single '\(scalar)' is not an operator")
      }
      kind = scalar == "&" ? .and : .or
    default:
      if Self.startsNumber(scalar, then: peek(at: position + 1), then: peek(at: position + 2)) {
        kind = numberOrWord()
      } else if Self.isWordScalar(scalar) {
        kind = .word(word())
      } else {
        throw SyntaxFailure(at: start, "unexpected character '\(Character(scalar))'")
      }
    }
    return QueryToken(kind: kind, offset: start)
  }

  // MARK: Scalars

  private func peek(at index: Int? = nil) -> Unicode.Scalar? {
    let index = index ?? position
    return index < scalars.count ? scalars[index] : nil
  }

  private mutating func consume(_ expected: Unicode.Scalar) -> Bool {
    guard peek() == expected else { return false }
    position += 1
    return true
  }

  private mutating func skipWhitespace() {
    while let scalar = peek(), scalar.properties.isWhitespace { position += 1 }
  }

  /// Letters, digits, marks, `_` and `.`: what attribute names (including dotted custom keys)
  /// and bare words are made of.
  static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
    if scalar == "_" || scalar == "." { return true }
    return WordScalarClass(scalar) != .separator
  }

  private static func isDigit(_ scalar: Unicode.Scalar?) -> Bool {
    guard let scalar else { return false }
    return scalar.value &- 0x30 < 10
  }

  /// `7`, `.5`, `-7`, `+.5`: the ways a number can begin.
  private static func startsNumber(
    _ first: Unicode.Scalar, then second: Unicode.Scalar?, then third: Unicode.Scalar?
  ) -> Bool {
    switch first {
    case "0"..."9": return true
    case ".": return isDigit(second)
    case "-", "+": return isDigit(second) || (second == "." && isDigit(third))
    default: return false
    }
  }

  // MARK: Tokens

  private mutating func word() -> String {
    let start = position
    while let scalar = peek(), Self.isWordScalar(scalar) { position += 1 }
    return text(start..<position)
  }

  /// A number, or — when what starts like one runs on into letters (`12abc`, `1.2.3`) — a word
  /// the parser reports as an invalid number (or treats as a custom key like `3d_model`).
  private mutating func numberOrWord() -> QueryToken.Kind {
    let start = position
    position += 1
    while let scalar = peek() {
      if Self.isWordScalar(scalar) {
        position += 1
      } else if scalar == "+" || scalar == "-", let previous = peek(at: position - 1),
        previous == "e" || previous == "E", Self.isDigit(peek(at: position + 1))
      {
        position += 1
      } else {
        break
      }
    }
    let spelling = text(start..<position)
    if let value = NumberLiteral.parse(spelling) { return .number(value, spelling: spelling) }
    return .word(spelling)
  }

  private mutating func quotedString() throws(SyntaxFailure) -> QuotedString {
    let start = position
    let quote = scalars[position]
    position += 1
    var segments: [TextPattern.Segment] = []
    var literal = String.UnicodeScalarView()
    var plain = String.UnicodeScalarView()
    func flush() {
      if !literal.isEmpty { segments.append(.literal(String(literal))) }
      literal = String.UnicodeScalarView()
    }
    while true {
      guard let scalar = peek() else {
        throw SyntaxFailure(
          at: start, "unterminated string: no closing \(Character(quote)) for this one")
      }
      position += 1
      if scalar == quote { break }
      switch scalar {
      case "\\":
        // Any escaped character is itself; `\*` is a literal star rather than a wildcard.
        guard let escaped = peek() else {
          throw SyntaxFailure(
            at: start, "unterminated string: no closing \(Character(quote)) for this one")
        }
        position += 1
        literal.append(escaped)
        plain.append(escaped)
      case "*":
        flush()
        segments.append(.wildcard)
        plain.append(scalar)
      default:
        literal.append(scalar)
        plain.append(scalar)
      }
    }
    flush()
    let modifiersStart = position
    let modifiers = try modifierLetters(until: nil)
    return QuotedString(
      pattern: TextPattern(segments: segments), text: String(plain), modifiers: modifiers,
      modifiersOffset: position > modifiersStart ? modifiersStart : nil)
  }

  /// `[cd]`, as in the legacy `kMDItemAuthors ==[c] "Steve"`.
  private mutating func bracketModifiers() throws(SyntaxFailure) -> TextModifiers {
    position += 1
    let modifiers = try modifierLetters(until: "]")
    guard consume("]") else {
      throw SyntaxFailure(at: position, "missing ']' after the modifiers")
    }
    return modifiers
  }

  /// Modifier letters: right after a closing quote (`until` nil: stops at the first non-letter),
  /// or inside brackets (`until` "]": spaces allowed, anything else before the `]` is an error).
  private mutating func modifierLetters(until terminator: Unicode.Scalar?) throws(SyntaxFailure)
    -> TextModifiers
  {
    var modifiers: TextModifiers = []
    while let scalar = peek() {
      if terminator != nil, scalar.properties.isWhitespace {
        position += 1
        continue
      }
      if scalar == terminator { break }
      let isLetter = WordScalarClass(scalar) != .separator && WordScalarClass(scalar) != .mark
      if !isLetter { break }
      switch scalar {
      case "c": modifiers.insert(.caseInsensitive)
      case "d": modifiers.insert(.diacriticInsensitive)
      case "w": modifiers.insert(.wordBased)
      case "t": modifiers.insert(.tokenized)
      default:
        throw SyntaxFailure(
          at: position, "unknown modifier '\(Character(scalar))': use c, d, w or t")
      }
      position += 1
    }
    return modifiers
  }

  /// `$time.today`, then an optional `( … )` read raw: its meaning depends on the function
  /// (`$time.iso(2024-01-01T00:00:00Z)` holds colons and dashes that are not tokens).
  private mutating func variable() throws(SyntaxFailure) -> VariableReference {
    position += 1
    let name = word()
    let afterName = position
    skipWhitespace()
    guard consume("(") else {
      position = afterName
      return VariableReference(name: name, argument: nil, argumentOffset: afterName)
    }
    let argumentStart = position
    var quote: Unicode.Scalar? = nil
    while let scalar = peek() {
      if let open = quote {
        if scalar == "\\" {
          position += 1
        } else if scalar == open {
          quote = nil
        }
      } else if scalar == "\"" || scalar == "'" {
        quote = scalar
      } else if scalar == ")" {
        let argument = text(argumentStart..<position)
        position += 1
        return VariableReference(name: name, argument: argument, argumentOffset: argumentStart)
      }
      position += 1
    }
    throw SyntaxFailure(
      at: scalars.count, "missing ')' to close '$\(name)('")
  }

  private func text(_ range: Range<Int>) -> String {
    var view = String.UnicodeScalarView()
    view.append(contentsOf: scalars[range.clamped(to: 0..<scalars.count)])
    return String(view)
  }
}
