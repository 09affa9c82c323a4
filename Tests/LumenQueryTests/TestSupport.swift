import Foundation
import LumenModel
import LumenQuery

/// A date from an ISO-8601 literal written in a test table.
func date(_ iso: String) -> Date {
  guard let date = ISO8601Dates.parse(iso, timeZone: TimeZone(secondsFromGMT: 0)!) else {
    fatalError("bad date literal in a test table: \(iso)")
  }
  return date
}

/// A pattern written as in a query literal: `*` is a wildcard, `\*` a literal star.
func pattern(_ text: String) -> TextPattern {
  var segments: [TextPattern.Segment] = []
  var literal = ""
  var escaping = false
  for character in text {
    if escaping {
      literal.append(character)
      escaping = false
    } else if character == "\\" {
      escaping = true
    } else if character == "*" {
      segments.append(.literal(literal))
      literal = ""
      segments.append(.wildcard)
    } else {
      literal.append(character)
    }
  }
  segments.append(.literal(literal))
  return TextPattern(segments: segments)
}

func compare(
  _ key: AttributeKey, _ op: ComparisonOperator, _ value: QueryValue,
  _ modifiers: TextModifiers = []
) -> QueryExpression {
  .comparison(Comparison(attribute: .key(key), op: op, value: value, modifiers: modifiers))
}

func text(_ value: String) -> QueryValue { .text(pattern(value)) }

let paris = TimeZone(identifier: "Europe/Paris")!

/// Friday 15 March 2024, 10:30 in Paris (UTC+1, two weeks before summer time), weeks on Monday.
let parisParser = QueryParser(
  now: date("2024-03-15T09:30:00Z"), timeZone: paris, firstWeekday: 2)

extension TextModifiers {
  static let c: TextModifiers = .caseInsensitive
  static let d: TextModifiers = .diacriticInsensitive
  static let w: TextModifiers = .wordBased
  static let t: TextModifiers = .tokenized
}
