import Foundation
import LumenModel

/// Reading `$time.…` references: the function name, and its argument as an offset in the
/// function's unit or, for `$time.iso`, an ISO-8601 date (quoted or bare).
extension TimeValueResolver {
  /// The date a `$…` reference stands for; `offset` is where the `$` is.
  func resolve(_ variable: VariableReference, at offset: Int) throws(SyntaxFailure) -> Date {
    let functions =
      "$time.now, $time.today, $time.yesterday, $time.this_week, $time.last_week, $time.this_month, $time.this_year or $time.iso(…)"
    guard variable.name.hasPrefix("time.") else {
      throw SyntaxFailure(at: offset, "unknown variable '$\(variable.name)': use \(functions)")
    }
    let name = String(variable.name.dropFirst("time.".count))
    guard let function = TimeFunction(rawValue: name) else {
      throw SyntaxFailure(
        at: offset + "$time.".count, "unknown $time function '\(name)': use \(functions)")
    }
    let (argument, argumentOffset) = Self.trimmed(variable)
    if function == .iso {
      return try isoDate(argument, at: argumentOffset)
    }
    var amount = 0.0
    if let argument, !argument.isEmpty {
      guard let number = NumberLiteral.parse(argument) else {
        throw SyntaxFailure(
          at: argumentOffset,
          "invalid $time offset '\(argument)': expected a number of \(function.offsetUnit)")
      }
      guard function == .now || number == number.rounded() else {
        throw SyntaxFailure(
          at: argumentOffset,
          "invalid $time offset '\(argument)': expected a whole number of \(function.offsetUnit)")
      }
      guard abs(number) <= function.offsetLimit else {
        throw SyntaxFailure(
          at: argumentOffset,
          "$time offset out of range: at most \(AttributeValue.format(function.offsetLimit)) \(function.offsetUnit) either way"
        )
      }
      amount = number
    }
    guard let date = date(function, offset: amount) else {
      throw SyntaxFailure(at: offset, "$time.\(name) falls outside the calendar's range")
    }
    return date
  }

  private func isoDate(_ argument: String?, at offset: Int) throws(SyntaxFailure) -> Date {
    guard var text = argument, !text.isEmpty else {
      throw SyntaxFailure(
        at: offset, "$time.iso needs a date, as in $time.iso(2024-03-15T10:30:00Z)")
    }
    if let quote = text.unicodeScalars.first, quote == "\"" || quote == "'" {
      let scalars = Array(text.unicodeScalars)
      guard scalars.count >= 2, scalars[scalars.count - 1] == quote else {
        throw SyntaxFailure(
          at: offset, "unterminated string: no closing \(Character(quote)) for this one")
      }
      var unescaped = String.UnicodeScalarView()
      var index = 1
      while index < scalars.count - 1 {
        if scalars[index] == "\\", index + 1 < scalars.count - 1 { index += 1 }
        unescaped.append(scalars[index])
        index += 1
      }
      text = String(unescaped)
    }
    guard let date = ISO8601Dates.parse(text, timeZone: calendar.timeZone) else {
      throw SyntaxFailure(
        at: offset,
        "invalid ISO-8601 date '\(text)': use a form such as 2024-03-15 or 2024-03-15T10:30:00Z")
    }
    return date
  }

  /// The argument without surrounding whitespace, and the scalar offset where it now starts.
  private static func trimmed(_ variable: VariableReference) -> (String?, Int) {
    guard let argument = variable.argument else { return (nil, variable.argumentOffset) }
    let scalars = Array(argument.unicodeScalars)
    var start = 0
    var end = scalars.count
    while start < end, scalars[start].properties.isWhitespace { start += 1 }
    while end > start, scalars[end - 1].properties.isWhitespace { end -= 1 }
    var view = String.UnicodeScalarView()
    view.append(contentsOf: scalars[start..<end])
    return (String(view), variable.argumentOffset + start)
  }
}
