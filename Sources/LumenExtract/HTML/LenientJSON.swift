import Foundation

/// JSON as web pages actually write it inside `<script type="application/ld+json">`: parsed
/// strictly first, then (as extruct does) after removing a leading HTML or `//` comment line,
/// JavaScript comments, trailing commas and raw control characters inside strings.
/// Foundation's JSONSerialization does the parsing; this only repairs the text.
enum LenientJSON {
  enum Failure: Error, CustomStringConvertible {
    case invalid(String)
    var description: String {
      switch self {
      case .invalid(let reason): reason
      }
    }
  }

  static func parse(_ text: String) throws(Failure) -> Any {
    if let value = try? JSONSerialization.jsonObject(
      with: Data(text.utf8), options: [.fragmentsAllowed])
    {
      return value
    }
    let repaired = repair(stripLeadingCommentLine(text))
    do {
      return try JSONSerialization.jsonObject(
        with: Data(repaired.utf8), options: [.fragmentsAllowed])
    } catch {
      throw .invalid("\(error.localizedDescription)")
    }
  }

  /// extruct's `^\s*(//.*|<!--.*-->)`: one comment at the very start.
  static func stripLeadingCommentLine(_ text: String) -> String {
    let trimmed = text.drop(while: \.isWhitespace)
    if trimmed.hasPrefix("//") {
      return String(trimmed.drop { $0 != "\n" })
    }
    if trimmed.hasPrefix("<!--"), let end = trimmed.range(of: "-->") {
      let firstLineEnd = trimmed.firstIndex(of: "\n") ?? trimmed.endIndex
      if end.upperBound <= firstLineEnd { return String(trimmed[end.upperBound...]) }
    }
    return text
  }

  /// Removes `//` and `/* */` comments and trailing commas outside strings, and escapes control
  /// characters inside strings (Python's `strict=False`). One pass over the scalars.
  static func repair(_ text: String) -> String {
    let scalars = Array(text.unicodeScalars)
    var output: [Unicode.Scalar] = []
    output.reserveCapacity(scalars.count)
    var index = 0
    var inString = false
    // Index in `output` of a comma that may turn out to be trailing.
    var pendingComma: Int? = nil
    while index < scalars.count {
      let scalar = scalars[index]
      if inString {
        if scalar == "\\", index + 1 < scalars.count {
          output.append(scalar)
          output.append(scalars[index + 1])
          index += 2
          continue
        }
        if scalar == "\"" { inString = false }
        if scalar.value < 0x20 {
          output.append(contentsOf: String(format: "\\u%04x", scalar.value).unicodeScalars)
        } else {
          output.append(scalar)
        }
        index += 1
        continue
      }
      if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "/" {
        while index < scalars.count, scalars[index] != "\n" { index += 1 }
        continue
      }
      if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
        index += 2
        while index + 1 < scalars.count, !(scalars[index] == "*" && scalars[index + 1] == "/") {
          index += 1
        }
        index += 2
        continue
      }
      if scalar == "}" || scalar == "]", let comma = pendingComma {
        output.remove(at: comma)
        pendingComma = nil
      }
      if scalar == "," {
        output.append(scalar)
        pendingComma = output.count - 1
      } else {
        if !scalar.properties.isWhitespace { pendingComma = nil }
        if scalar == "\"" { inString = true }
        output.append(scalar)
      }
      index += 1
    }
    var result = String.UnicodeScalarView()
    result.append(contentsOf: output)
    return String(result)
  }
}
