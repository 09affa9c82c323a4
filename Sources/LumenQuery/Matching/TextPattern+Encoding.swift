/// A lossless one-string form of a pattern, for handing it to code that only carries text — a
/// bound SQL parameter read by a SQLite function that rebuilds (and caches) the `TextMatcher`.
/// `*` is a wildcard, `\*` a literal star, `\\` a literal backslash; nothing else is escaped.
/// (`description` is for people: it does not escape backslashes, so it cannot be read back.)
extension TextPattern {
  public var encoded: String {
    var text = ""
    for segment in segments {
      switch segment {
      case .wildcard: text += "*"
      case .literal(let literal):
        for scalar in literal.unicodeScalars {
          if scalar == "*" || scalar == "\\" { text.unicodeScalars.append("\\") }
          text.unicodeScalars.append(scalar)
        }
      }
    }
    return text
  }

  /// Reads `encoded`; nil when it ends in a lone backslash or escapes anything but `*` or `\`.
  public init?(encoded: String) {
    var segments: [Segment] = []
    var literal = String.UnicodeScalarView()
    var escaping = false
    for scalar in encoded.unicodeScalars {
      if escaping {
        guard scalar == "*" || scalar == "\\" else { return nil }
        literal.append(scalar)
        escaping = false
      } else if scalar == "\\" {
        escaping = true
      } else if scalar == "*" {
        segments.append(.literal(String(literal)))
        literal = String.UnicodeScalarView()
        segments.append(.wildcard)
      } else {
        literal.append(scalar)
      }
    }
    guard !escaping else { return nil }
    segments.append(.literal(String(literal)))
    self.init(segments: segments)
  }
}
