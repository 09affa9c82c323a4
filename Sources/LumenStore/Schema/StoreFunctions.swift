import GRDB
import LumenQuery
import Synchronization

/// The SQLite functions through which SQL uses the query language's own text semantics, so
/// that a query compiled to SQL accepts exactly what `QueryEvaluator` accepts. They are
/// deterministic and only ever check candidates or scan what no index can answer; indexes do
/// the finding (see `QueryCompiler`).
///
/// - `lumen_match(value, pattern, mode)`: `TextMatcher` (`mode` = modifier bits, or
///   `freeTextMode` for a free-text term) → 1 or 0; 0 for NULL.
/// - `lumen_match_any(pattern, mode, value…)`: whether any non-NULL value matches (with
///   `negatedMode` in `mode`: whether any non-NULL value does not match).
/// - `lumen_match_lines(words, pattern, mode)`: the same over the lines of a words document.
/// - `lumen_compare(value, text, modifiers)`: `TextOrdering.compare` → -1, 0, 1.
enum StoreFunctions {
  /// Marks a `lumen_match` call as a free-text term (`TextMatcher.freeTextTerm`).
  static let freeTextMode = 0x100
  /// Makes `lumen_match_any` ask whether some value does NOT match.
  static let negatedMode = 0x200

  static func register(in db: Database) {
    db.add(function: match)
    db.add(function: matchAny)
    db.add(function: matchLines)
    db.add(function: compare)
  }

  /// `lumen_match_lines(words, pattern, mode)`: whether a line of an `item_text.words` document
  /// (one value's folded words) matches. Exact for `cdw` patterns with word characters and for
  /// free-text terms: the line's words are the value's words as `TextMatcher` folds them.
  private static let matchLines = DatabaseFunction(
    "lumen_match_lines", argumentCount: 3, pure: true
  ) { arguments in
    guard case .string(let document) = arguments[0].storage,
      let matcher = matcher(arguments[1], arguments[2])
    else { return 0 }
    for line in document.split(separator: "\n")
    where line != SearchDocuments.valueBreak && matcher.matches(String(line)) {
      return 1
    }
    return 0
  }

  private static let match = DatabaseFunction("lumen_match", argumentCount: 3, pure: true) {
    arguments in
    guard case .string(let value) = arguments[0].storage,
      let matcher = matcher(arguments[1], arguments[2])
    else { return 0 }
    return matcher.matches(value) ? 1 : 0
  }

  private static let matchAny = DatabaseFunction("lumen_match_any", pure: true) { arguments in
    guard arguments.count >= 2, let matcher = matcher(arguments[0], arguments[1]),
      case .int64(let mode) = arguments[1].storage
    else { return 0 }
    let wanted = Int(mode) & negatedMode == 0
    for argument in arguments.dropFirst(2) {
      if case .string(let value) = argument.storage, matcher.matches(value) == wanted { return 1 }
    }
    return 0
  }

  private static let compare = DatabaseFunction("lumen_compare", argumentCount: 3, pure: true) {
    arguments in
    guard case .string(let value) = arguments[0].storage,
      case .string(let text) = arguments[1].storage,
      case .int64(let bits) = arguments[2].storage
    else { return nil }
    let order = TextOrdering.compare(
      value, text, modifiers: TextModifiers(rawValue: UInt8(truncatingIfNeeded: bits)))
    return order < 0 ? -1 : (order > 0 ? 1 : 0)
  }

  // MARK: Compiled matchers

  private struct MatcherKey: Hashable {
    let pattern: ExactText
    let mode: Int64
  }

  /// Matchers by (pattern, mode): a query calls the function once per candidate with the same
  /// constant pattern, and compiling (folding, splitting) it each time would dominate.
  private static let cache = Mutex<[MatcherKey: TextMatcher?]>([:])

  private static func matcher(_ pattern: DatabaseValue, _ mode: DatabaseValue) -> TextMatcher? {
    guard case .string(let encoded) = pattern.storage, case .int64(let given) = mode.storage
    else { return nil }
    let bits = given & ~Int64(negatedMode)
    let key = MatcherKey(pattern: ExactText(encoded), mode: bits)
    if let cached = cache.withLock({ $0[key] }) { return cached }
    let matcher: TextMatcher?
    if Int(bits) & freeTextMode != 0 {
      matcher = TextMatcher.freeTextTerm(encoded)
    } else {
      matcher = TextMatcher(
        pattern: PatternCoding.decode(encoded),
        modifiers: TextModifiers(rawValue: UInt8(truncatingIfNeeded: bits)))
    }
    cache.withLock { cache in
      if cache.count > 512 { cache.removeAll() }
      cache[key] = matcher
    }
    return matcher
  }
}

/// A `TextPattern` as one SQL text argument: `*` is a wildcard, `\*` a literal star and `\\` a
/// literal backslash.
enum PatternCoding {
  static func encode(_ pattern: TextPattern) -> String {
    var out = ""
    for segment in pattern.segments {
      switch segment {
      case .wildcard: out += "*"
      case .literal(let text):
        for scalar in text.unicodeScalars {
          if scalar == "*" || scalar == "\\" { out += "\\" }
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }

  static func decode(_ encoded: String) -> TextPattern {
    var segments: [TextPattern.Segment] = []
    var literal = String.UnicodeScalarView()
    var escaped = false
    for scalar in encoded.unicodeScalars {
      if escaped {
        literal.append(scalar)
        escaped = false
      } else if scalar == "\\" {
        escaped = true
      } else if scalar == "*" {
        segments.append(.literal(String(literal)))
        literal = String.UnicodeScalarView()
        segments.append(.wildcard)
      } else {
        literal.append(scalar)
      }
    }
    segments.append(.literal(String(literal)))
    return TextPattern(segments: segments)
  }
}
