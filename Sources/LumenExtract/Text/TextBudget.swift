/// Gathers `textContent` up to a rule's `MaxTextBytes=` and cuts on a character boundary, so
/// the index never holds half a character or more text than the rule allows. Every extractor
/// that produces text fills one of these; it tells them when to stop reading.
struct TextBudget {
  let limit: Int
  private(set) var text = ""
  /// True once something was dropped for lack of room.
  private(set) var isTruncated = false

  init(limit: Int) { self.limit = max(0, limit) }

  var isFull: Bool { isTruncated || text.utf8.count >= limit }
  var remaining: Int { max(0, limit - text.utf8.count) }

  /// Appends `piece`, cut to what still fits.
  mutating func append<S: StringProtocol>(_ piece: S) {
    guard !piece.isEmpty else { return }
    let room = remaining
    if piece.utf8.count <= room {
      text += piece
    } else {
      text += Self.prefix(of: String(piece), maxBytes: room)
      isTruncated = true
    }
  }

  /// Separates the next piece from the previous one (a paragraph break, a space), unless the
  /// text is empty or already ends with white space.
  mutating func separate(with separator: String = "\n") {
    guard let last = text.last, !last.isWhitespace else { return }
    append(separator)
  }

  /// The longest prefix of `string` within `maxBytes` UTF-8 bytes that ends on a character
  /// boundary.
  static func prefix(of string: String, maxBytes: Int) -> String {
    guard string.utf8.count > maxBytes else { return string }
    guard maxBytes > 0 else { return "" }
    var cut = string.utf8.index(string.utf8.startIndex, offsetBy: maxBytes)
    while cut > string.startIndex, cut.samePosition(in: string) == nil {
      cut = string.utf8.index(before: cut)
    }
    return String(string[..<cut])
  }

  /// The gathered text with surrounding white space trimmed; nil when there is none.
  var result: String? {
    let trimmed = text.trimmingWhitespace()
    return trimmed.isEmpty ? nil : trimmed
  }
}

extension StringProtocol {
  /// The string without leading and trailing white space (Unicode's definition).
  func trimmingWhitespace() -> String {
    guard let first = firstIndex(where: { !$0.isWhitespace }),
      let last = lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return String(self[first...last])
  }
}
