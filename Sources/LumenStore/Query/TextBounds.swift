/// Bounds of an index range scan for "starts with `prefix`" on text compared by UTF-8 bytes
/// (SQLite's BINARY collation): every string with the prefix is ≥ the prefix and < the prefix
/// with its last scalar replaced by the next scalar, and no other string is.
enum TextBounds {
  /// The smallest string greater than every string starting with `prefix`; nil when there is
  /// none (an empty prefix, or one made only of U+10FFFF).
  static func upperBound(ofPrefix prefix: String) -> String? {
    var scalars = Array(prefix.unicodeScalars)
    while let last = scalars.popLast() {
      if let next = successor(of: last) {
        scalars.append(next)
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars)
        return String(result)
      }
    }
    return nil
  }

  /// The next Unicode scalar value, skipping the surrogate range.
  static func successor(of scalar: Unicode.Scalar) -> Unicode.Scalar? {
    var value = scalar.value + 1
    if value == 0xD800 { value = 0xE000 }
    return Unicode.Scalar(value)
  }
}
