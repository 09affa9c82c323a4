import Foundation

/// The `c` and `d` modifiers as one function, used on both sides of every text comparison (the
/// pattern once, each value per match) and by the SQL side through SQLite functions, so there is
/// exactly one definition of "the same text".
///
/// - `caseInsensitive`: `String.lowercased()` (per-scalar lowercase mapping, no locale).
/// - `diacriticInsensitive`: canonical decomposition (NFD), then every nonspacing mark (general
///   category Mn, which includes U+0300–U+036F) is dropped.
/// - The result is always in NFC, so canonically equivalent spellings (a precomposed "é" and
///   "e" + U+0301) fold to the same bytes even without `d`.
///
/// ASCII text never changes under NFC or mark removal, so it takes a fast path that allocates
/// only when there is an uppercase letter to lower. Other text is folded scalar by scalar from a
/// memo (`ScalarFoldingCache`) unless it holds combining marks or conjoining jamo, whose folding
/// depends on their neighbours; then the whole text goes through `foldWhole`.
public enum TextFolding {
  public static func fold(_ text: String, caseInsensitive: Bool, diacriticInsensitive: Bool)
    -> String
  {
    if isASCII(text) {
      return caseInsensitive ? lowercasedASCII(text) : text
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    appendFolded(
      text[...], caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive,
      to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the folded UTF-8 of `text` to `bytes`: the allocation-light form the matcher uses.
  static func appendFolded(
    _ text: Substring, caseInsensitive: Bool, diacriticInsensitive: Bool, to bytes: inout [UInt8]
  ) {
    let start = bytes.count
    var text = text
    let complete = text.withUTF8 { utf8 in
      var index = 0
      while index < utf8.count {
        let byte = utf8[index]
        if byte < 0x80 {
          bytes.append(caseInsensitive ? lowerASCII(byte) : byte)
          index += 1
          continue
        }
        let (scalar, length) = decodeScalar(utf8, at: index)
        guard
          let mapped = ScalarFoldingCache.shared.foldedUTF8(
            scalar, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive)
        else { return false }
        bytes.append(contentsOf: mapped)
        index += length
      }
      return true
    }
    if !complete {
      bytes.removeSubrange(start...)
      let whole = foldWhole(
        String(text), caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive)
      bytes.append(contentsOf: whole.utf8)
    }
  }

  /// The scalar starting at `index` of valid UTF-8 (Swift strings always are) and its length.
  @inline(__always)
  static func decodeScalar(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> (
    Unicode.Scalar, Int
  ) {
    let lead = UInt32(utf8[index])
    let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
    guard length > 1, index + length <= utf8.count else {
      return (Unicode.Scalar(UInt8(truncatingIfNeeded: lead)), 1)
    }
    var value = lead & (0xFF >> (length + 1))
    for offset in 1..<length { value = value << 6 | UInt32(utf8[index + offset] & 0x3F) }
    return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
  }

  /// The definition itself, on the whole text: the reference the per-scalar path must equal.
  static func foldWhole(_ text: String, caseInsensitive: Bool, diacriticInsensitive: Bool)
    -> String
  {
    var folded = caseInsensitive ? text.lowercased() : text
    if diacriticInsensitive {
      var kept = String.UnicodeScalarView()
      for scalar in folded.decomposedStringWithCanonicalMapping.unicodeScalars
      where scalar.properties.generalCategory != .nonspacingMark {
        kept.append(scalar)
      }
      folded = String(kept)
    }
    return folded.precomposedStringWithCanonicalMapping
  }

  /// Folding as the modifiers ask (`c` and `d`; `w` and `t` do not fold).
  public static func fold(_ text: String, modifiers: TextModifiers) -> String {
    fold(
      text, caseInsensitive: modifiers.contains(.caseInsensitive),
      diacriticInsensitive: modifiers.contains(.diacriticInsensitive))
  }

  static func isASCII(_ text: String) -> Bool {
    if let result = text.utf8.withContiguousStorageIfAvailable({ isASCII($0) }) { return result }
    return text.utf8.allSatisfy { $0 < 0x80 }
  }

  @inline(__always)
  static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var combined: UInt8 = 0
    for byte in bytes { combined |= byte }
    return combined < 0x80
  }

  private static func lowercasedASCII(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 &- UInt8(ascii: "A") < 26 }) else { return text }
    let count = text.utf8.count
    return String(unsafeUninitializedCapacity: count) { buffer in
      for (offset, byte) in text.utf8.enumerated() { buffer[offset] = lowerASCII(byte) }
      return count
    }
  }

  @inline(__always)
  static func lowerASCII(_ byte: UInt8) -> UInt8 {
    byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
  }
}
