/// A folded wildcard pattern matched against UTF-8 bytes: literal runs separated by `*`, where
/// `*` is any run of characters, including none. Because UTF-8 is self-synchronising, matching
/// bytes is the same as matching Unicode scalars: a literal can only be found where a scalar starts.
struct GlobPattern: Sendable {
  /// The literal runs, already folded, as UTF-8.
  private let literals: [[UInt8]]
  private let leadingWildcard: Bool
  private let trailingWildcard: Bool
  private let hasWildcard: Bool

  init(_ segments: [TextPattern.Segment], modifiers: TextModifiers) {
    var literals: [[UInt8]] = []
    var hasWildcard = false
    for segment in segments {
      switch segment {
      case .wildcard: hasWildcard = true
      case .literal(let text):
        literals.append(Array(TextFolding.fold(text, modifiers: modifiers).utf8))
      }
    }
    self.literals = literals
    self.hasWildcard = hasWildcard
    self.leadingWildcard = segments.first == .wildcard
    self.trailingWildcard = segments.last == .wildcard
  }

  /// Whether the whole of `value` matches. With `lowercasingASCII`, value bytes A–Z compare as
  /// a–z: the caller's way of folding an ASCII value for `c` without copying it.
  func matches(_ value: UnsafeBufferPointer<UInt8>, lowercasingASCII: Bool) -> Bool {
    guard hasWildcard else {
      let literal = literals.first ?? []
      return value.count == literal.count
        && Self.equal(value, at: 0, literal, lowercasingASCII: lowercasingASCII)
    }
    var low = 0
    var high = value.count
    var first = 0
    var last = literals.count
    if !leadingWildcard, let prefix = literals.first {
      guard prefix.count <= high,
        Self.equal(value, at: 0, prefix, lowercasingASCII: lowercasingASCII)
      else { return false }
      low = prefix.count
      first = 1
    }
    if !trailingWildcard, last > first, let suffix = literals.last {
      guard high - suffix.count >= low,
        Self.equal(value, at: high - suffix.count, suffix, lowercasingASCII: lowercasingASCII)
      else { return false }
      high -= suffix.count
      last -= 1
    }
    // Leftmost-first placement of the middle runs is optimal when the only wildcard is `*`.
    for index in first..<last {
      guard
        let found = Self.find(
          literals[index], in: value, from: low, to: high, lowercasingASCII: lowercasingASCII)
      else { return false }
      low = found + literals[index].count
    }
    return true
  }

  @inline(__always)
  private static func equal(
    _ value: UnsafeBufferPointer<UInt8>, at offset: Int, _ literal: [UInt8], lowercasingASCII: Bool
  ) -> Bool {
    for i in 0..<literal.count {
      let byte = value[offset + i]
      if (lowercasingASCII ? TextFolding.lowerASCII(byte) : byte) != literal[i] { return false }
    }
    return true
  }

  private static func find(
    _ literal: [UInt8], in value: UnsafeBufferPointer<UInt8>, from low: Int, to high: Int,
    lowercasingASCII: Bool
  ) -> Int? {
    guard !literal.isEmpty else { return low }
    guard high - low >= literal.count else { return nil }
    for start in low...(high - literal.count)
    where equal(value, at: start, literal, lowercasingASCII: lowercasingASCII) {
      return start
    }
    return nil
  }
}
