/// How `<`, `>`, `<=`, `>=` and `InRange` order text: both sides folded as the `c`/`d` modifiers
/// ask (always NFC), then compared by UTF-8 bytes, which is Unicode scalar (code point) order —
/// the same order as SQLite's BINARY collation on UTF-8 text, so SQL and Swift agree.
public enum TextOrdering {
  /// Negative when `lhs` sorts first, zero when equal, positive when `rhs` sorts first.
  public static func compare(_ lhs: String, _ rhs: String, modifiers: TextModifiers = []) -> Int {
    var left = TextFolding.fold(lhs, modifiers: modifiers)
    var right = TextFolding.fold(rhs, modifiers: modifiers)
    return left.withUTF8 { l in
      right.withUTF8 { r in
        let common = min(l.count, r.count)
        for i in 0..<common where l[i] != r[i] { return l[i] < r[i] ? -1 : 1 }
        return l.count == r.count ? 0 : (l.count < r.count ? -1 : 1)
      }
    }
  }
}
