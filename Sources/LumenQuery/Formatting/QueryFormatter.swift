import Foundation
import LumenModel

/// Writes an AST back as query text that `QueryParser` reads to the same AST: for logs,
/// `--explain`-style output, and the parser's round-trip tests.
///
/// Every `&&`, `||` and `!` operand is parenthesised, so the tree's shape survives; attributes
/// are written by Core Spotlight name; dates as seconds since 2001-01-01 (exact, whatever the
/// time zone); numbers in Swift's shortest round-tripping form. Free text is written as its
/// terms (quoted when needed) and reads back as free text only as a whole query.
public enum QueryFormatter {
  public static func format(_ expression: QueryExpression) -> String {
    switch expression {
    case .constant(let value): return value ? "true" : "false"
    case .not(let operand): return "!(\(format(operand)))"
    case .and(let left, let right): return "(\(format(left))) && (\(format(right)))"
    case .or(let left, let right): return "(\(format(left))) || (\(format(right)))"
    case .comparison(let comparison):
      return "\(format(comparison.attribute)) \(comparison.op.rawValue) "
        + format(comparison.value) + format(comparison.modifiers)
    case .inRange(let attribute, let lower, let upper):
      return "InRange(\(format(attribute)), \(format(lower)), \(format(upper)))"
    case .freeText(let terms):
      return terms.map { term in
        let plain = term.unicodeScalars.allSatisfy {
          !$0.properties.isWhitespace && !FreeTextSplitter.operatorScalars.contains($0)
        }
        return plain && !term.hasPrefix("\"") && !term.hasPrefix("'") ? term : quoted(term)
      }.joined(separator: " ")
    }
  }

  private static func format(_ attribute: QueryAttribute) -> String {
    switch attribute {
    case .anySearchable: "*"
    case .key(let key): key.name
    }
  }

  private static func format(_ value: QueryValue) -> String {
    switch value {
    case .text(let pattern):
      var text = "\""
      for segment in pattern.segments {
        switch segment {
        case .wildcard: text += "*"
        case .literal(let literal): text += escaped(literal)
        }
      }
      return text + "\""
    case .number(let number): return "\(number)"
    case .date(let date): return "\(date.timeIntervalSinceReferenceDate)"
    case .bool(let bool): return bool ? "true" : "false"
    }
  }

  private static func format(_ modifiers: TextModifiers) -> String {
    var letters = ""
    if modifiers.contains(.caseInsensitive) { letters += "c" }
    if modifiers.contains(.diacriticInsensitive) { letters += "d" }
    if modifiers.contains(.wordBased) { letters += "w" }
    if modifiers.contains(.tokenized) { letters += "t" }
    return letters
  }

  private static func quoted(_ text: String) -> String { "\"" + escaped(text) + "\"" }

  private static func escaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      if scalar == "\"" || scalar == "\\" || scalar == "*" { result.unicodeScalars.append("\\") }
      result.unicodeScalars.append(scalar)
    }
    return result
  }
}

extension QueryExpression {
  /// This expression as query text; see `QueryFormatter`.
  public var queryText: String { QueryFormatter.format(self) }
}
