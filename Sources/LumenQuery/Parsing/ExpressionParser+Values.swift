import Foundation
import LumenModel

/// Typing a literal as the compared attribute's value type, with an error at the value's column
/// when it cannot be one:
///
/// | attribute | accepts |
/// |---|---|
/// | text | quoted strings (with wildcards and modifiers); a bare number becomes its spelling |
/// | number | numbers, quoted numbers |
/// | date | quoted ISO-8601 (local time when no zone is given), numbers as seconds since 2001-01-01T00:00:00Z (Apple's epoch), `$time…` |
/// | bool | `true`, `false`, `1`, `0`, and the same quoted |
///
/// Wildcards and modifiers belong to text. On text, `<`, `>`, `<=`, `>=` order by code point (after
/// `c`/`d` folding), so a wildcard or word matching (`w`, `t`) there is refused: it has no order.
extension ExpressionParser {
  mutating func typedComparison(
    attribute: QueryAttribute, op: ComparisonOperator, modifiers bracketed: TextModifiers,
    modifiersOffset bracketOffset: Int?
  ) throws(SyntaxFailure) -> Comparison {
    let token = currentToken
    let type = Self.valueType(of: attribute)
    let (value, postfix, postfixOffset) = try literal(for: attribute)
    let modifiers = bracketed.union(postfix)
    let modifiersOffset = bracketOffset ?? postfixOffset ?? token.offset
    if type != .text, !modifiers.isEmpty {
      throw SyntaxFailure(
        at: modifiersOffset,
        "modifiers (c, d, w, t) apply only to text; \(Self.describe(attribute)) holds \(Self.describe(type))"
      )
    }
    let isOrdering = op != .equal && op != .notEqual
    if isOrdering, type == .bool {
      throw SyntaxFailure(
        at: token.offset,
        "\(Self.describe(attribute)) holds true or false, which only == and != compare")
    }
    if isOrdering, case .text(let pattern) = value {
      if pattern.hasWildcards {
        throw SyntaxFailure(
          at: token.offset,
          "wildcards work only with == and !=; '\(op.rawValue)' compares text in code point order")
      }
      if modifiers.contains(.wordBased) || modifiers.contains(.tokenized) {
        throw SyntaxFailure(
          at: modifiersOffset, "word matching (w, t) works only with == and !=")
      }
    }
    return Comparison(attribute: attribute, op: op, value: value, modifiers: modifiers)
  }

  /// One end of `InRange`: typed like a comparison value, without wildcards or modifiers.
  mutating func rangeBound(for attribute: QueryAttribute) throws(SyntaxFailure) -> QueryValue {
    let token = currentToken
    let type = Self.valueType(of: attribute)
    guard type != .bool else {
      throw SyntaxFailure(
        at: token.offset,
        "InRange needs a text, number or date attribute; \(Self.describe(attribute)) holds true or false"
      )
    }
    let (value, modifiers, modifiersOffset) = try literal(for: attribute)
    if !modifiers.isEmpty {
      throw SyntaxFailure(
        at: modifiersOffset ?? token.offset, "modifiers are not allowed in InRange")
    }
    if case .text(let pattern) = value, pattern.hasWildcards {
      throw SyntaxFailure(at: token.offset, "wildcards are not allowed in InRange")
    }
    return value
  }

  /// Reads the current token as a value of the attribute's type.
  private mutating func literal(for attribute: QueryAttribute) throws(SyntaxFailure) -> (
    QueryValue, TextModifiers, Int?
  ) {
    let token = currentToken
    let type = Self.valueType(of: attribute)
    let mismatch = { (what: String) in
      SyntaxFailure(
        at: token.offset, "\(what), but \(Self.describe(attribute)) holds \(Self.describe(type))")
    }
    let value: QueryValue
    var modifiers: TextModifiers = []
    var modifiersOffset: Int? = nil
    switch token.kind {
    case .string(let quoted):
      modifiers = quoted.modifiers
      modifiersOffset = quoted.modifiersOffset
      if type != .text, quoted.pattern.hasWildcards {
        throw mismatch("wildcards apply only to text")
      }
      switch type {
      case .text:
        value = .text(quoted.pattern)
      case .number:
        guard let number = NumberLiteral.parse(quoted.text.trimmingCharacters(in: .whitespaces))
        else { throw mismatch("'\(quoted.text)' is not a number") }
        value = .number(number)
      case .date:
        guard let date = ISO8601Dates.parse(quoted.text, timeZone: time.calendar.timeZone) else {
          throw mismatch("'\(quoted.text)' is not an ISO-8601 date such as 2024-03-15T10:30:00Z")
        }
        value = .date(date)
      case .bool:
        guard let bool = Self.bool(quoted.text.trimmingCharacters(in: .whitespaces)) else {
          throw mismatch("'\(quoted.text)' is not true, false, 1 or 0")
        }
        value = .bool(bool)
      }
    case .number(let number, let spelling):
      switch type {
      case .text: value = .text(.literal(spelling))
      case .number: value = .number(number)
      case .date: value = .date(Date(timeIntervalSinceReferenceDate: number))
      case .bool:
        guard let bool = Self.bool(spelling) else { throw mismatch("\(spelling) is not 1 or 0") }
        value = .bool(bool)
      }
    case .word(let word):
      if let bool = Self.bool(word), word.first?.isLetter == true {
        guard type == .bool else { throw mismatch("\(word) is a boolean") }
        value = .bool(bool)
      } else if let first = word.unicodeScalars.first,
        "0123456789+-.".unicodeScalars.contains(first)
      {
        throw SyntaxFailure(at: token.offset, "invalid number '\(word)'")
      } else if type == .text {
        throw SyntaxFailure(
          at: token.offset, "unquoted value '\(word)': put text in quotes, as in \"\(word)\"")
      } else {
        throw mismatch("'\(word)' is not a value")
      }
    case .variable(let variable):
      let date = try time.resolve(variable, at: token.offset)
      guard type == .date else { throw mismatch("a $time value is a date") }
      value = .date(date)
    default:
      throw SyntaxFailure(
        at: token.offset,
        "expected a value (a quoted string, a number, true, false or $time…), found \(token.quoted)"
      )
    }
    try advance()
    return (value, modifiers, modifiersOffset)
  }

  private static func bool(_ text: String) -> Bool? {
    switch text.lowercased() {
    case "true", "1": true
    case "false", "0": false
    default: nil
    }
  }

  static func valueType(of attribute: QueryAttribute) -> AttributeValueType {
    switch attribute {
    case .anySearchable: .text
    case .key(let key): key.valueType
    }
  }

  static func describe(_ attribute: QueryAttribute) -> String {
    switch attribute {
    case .anySearchable: "'*'"
    case .key(let key): "'\(key.name)'"
    }
  }

  static func describe(_ type: AttributeValueType) -> String {
    switch type {
    case .text: "text"
    case .number: "numbers"
    case .date: "dates"
    case .bool: "true or false"
    }
  }
}
