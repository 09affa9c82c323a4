/// Reads a query that is not an expression as free-text terms, when it plainly is one.
///
/// The rule (`QueryParser` applies it only after the expression parser has failed):
/// - Terms are separated by whitespace. A `"` or `'` at the start of a term opens a quoted
///   phrase, kept as one term, that runs to the matching quote (backslash escapes as in
///   values) and must be followed by whitespace or the end. A quote inside a term (`don't`)
///   is an ordinary character.
/// - Any of `= < > ! & | ( )` outside a quoted phrase means the query was meant as an
///   expression: no free text, the expression's error stands. So does an unterminated phrase,
///   or a phrase followed directly by modifiers (`"Paris"c`).
/// - Terms with no word characters (`-`, `*`) are dropped; if none are left, no free text.
enum FreeTextSplitter {
  static let operatorScalars: Set<Unicode.Scalar> = ["=", "<", ">", "!", "&", "|", "(", ")"]

  static func terms(_ text: String) -> [String]? {
    let scalars = Array(text.unicodeScalars)
    var terms: [String] = []
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar.properties.isWhitespace {
        index += 1
        continue
      }
      var term = String.UnicodeScalarView()
      if scalar == "\"" || scalar == "'" {
        index += 1
        var closed = false
        while index < scalars.count {
          let inner = scalars[index]
          index += 1
          if inner == scalar {
            closed = true
            break
          }
          if inner == "\\" {
            guard index < scalars.count else { return nil }
            term.append(scalars[index])
            index += 1
          } else {
            term.append(inner)
          }
        }
        guard closed else { return nil }
        if index < scalars.count, !scalars[index].properties.isWhitespace { return nil }
      } else {
        while index < scalars.count, !scalars[index].properties.isWhitespace {
          guard !operatorScalars.contains(scalars[index]) else { return nil }
          term.append(scalars[index])
          index += 1
        }
      }
      let string = String(term)
      if !WordSplitter.words(string).isEmpty { terms.append(string) }
    }
    return terms.isEmpty ? nil : terms
  }
}
