import Foundation
import Synchronization

/// Folding one scalar at a time, memoised: most non-ASCII text (accented Latin, Greek, Cyrillic,
/// CJK…) folds scalar by scalar, because `lowercased()` is a per-scalar mapping and NFC can only
/// join a scalar to the one before it when the second is a combining mark or a conjoining
/// Hangul jamo. Text containing one of those (before or after mapping) is "context-dependent"
/// and `TextFolding` folds it whole instead — except nonspacing marks under `d`, which are
/// removed wherever they stand, so decomposed (macOS-style) names stay on the fast path.
final class ScalarFoldingCache: Sendable {
  static let shared = ScalarFoldingCache()

  private enum Entry {
    case mapped([UInt8])
    case contextDependent
  }

  /// Keyed by scalar value and mode; bounded so hostile input cannot grow it without end.
  private let entries = Mutex<[UInt32: Entry]>([:])
  private static let capacity = 1 << 16

  /// The folded form of `scalar` alone, as UTF-8, or nil when its folding depends on its
  /// neighbours.
  func foldedUTF8(_ scalar: Unicode.Scalar, caseInsensitive: Bool, diacriticInsensitive: Bool)
    -> [UInt8]?
  {
    let key = scalar.value << 2 | (caseInsensitive ? 1 : 0) | (diacriticInsensitive ? 2 : 0)
    if let entry = entries.withLock({ $0[key] }) {
      if case .mapped(let bytes) = entry { return bytes }
      return nil
    }
    let entry: Entry
    if diacriticInsensitive, scalar.properties.generalCategory == .nonspacingMark {
      // `d` strips every nonspacing mark after decomposition, wherever it stands; a mark
      // typed as its own scalar is simply gone (and its decomposition is only marks).
      entry = .mapped([])
    } else if Self.mayCompose(scalar) {
      entry = .contextDependent
    } else {
      let folded = TextFolding.foldWhole(
        String(Character(scalar)), caseInsensitive: caseInsensitive,
        diacriticInsensitive: diacriticInsensitive)
      entry =
        folded.unicodeScalars.contains(where: Self.mayCompose)
        ? .contextDependent : .mapped(Array(folded.utf8))
    }
    entries.withLock { table in
      if table.count < Self.capacity { table[key] = entry }
    }
    if case .mapped(let bytes) = entry { return bytes }
    return nil
  }

  /// Combining marks (every scalar NFC may attach to a predecessor or reorder is one, or is a
  /// conjoining jamo) and the conjoining Hangul jamo blocks.
  static func mayCompose(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x1100...0x11FF, 0xA960...0xA97F, 0xD7B0...0xD7FF: return true
    default: break
    }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return true
    default: return scalar.properties.canonicalCombiningClass != .notReordered
    }
  }
}
