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
/// only when there is an uppercase letter to lower.
public enum TextFolding {
  public static func fold(_ text: String, caseInsensitive: Bool, diacriticInsensitive: Bool)
    -> String
  {
    if isASCII(text) {
      return caseInsensitive ? lowercasedASCII(text) : text
    }
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
