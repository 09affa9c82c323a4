import Foundation

/// A string compared and hashed by its UTF-8 bytes. Swift's `String` equality is canonical
/// equivalence (a precomposed "é" equals "e" + U+0301), but on Linux those are two different
/// file names, and SQLite compares bytes: caches keyed by path or identifier must too.
struct ExactText: Hashable, Sendable {
  let string: String

  init(_ string: String) { self.string = string }

  static func == (lhs: ExactText, rhs: ExactText) -> Bool {
    lhs.string.isIdentical(to: rhs.string)
  }

  func hash(into hasher: inout Hasher) {
    var copy = string
    copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}

extension String {
  /// Byte equality: see `ExactText`. Compared as contiguous buffers (`memcmp`), not byte by
  /// byte through the generic collection API, which showed in profiles of the write path.
  func isIdentical(to other: String) -> Bool {
    guard utf8.count == other.utf8.count else { return false }
    var left = self
    var right = other
    return left.withUTF8 { a in
      right.withUTF8 { b in a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
    }
  }

  /// Whether this text is already in Unicode normalization form C, the form every comparison
  /// folds to. Values that are not NFC cannot be found through a plain index lookup of the
  /// folded pattern, so the item is flagged and such comparisons also check flagged items.
  var isNFC: Bool {
    if utf8.allSatisfy({ $0 < 0x80 }) { return true }
    // Below U+0300 (Latin-1, Latin Extended, IPA, spacing modifiers) every scalar has
    // NFC_Quick_Check = Yes, so such text is NFC without normalizing it: "Zürich", "résumé".
    if unicodeScalars.allSatisfy({ $0.value < 0x300 }) { return true }
    return precomposedStringWithCanonicalMapping.utf8.elementsEqual(utf8)
  }
}
