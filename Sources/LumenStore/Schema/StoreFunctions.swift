import GRDB
import GRDBSQLite
import LumenQuery

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
///
/// They are registered through SQLite's C API rather than GRDB's `DatabaseFunction` because a
/// count checks tens of thousands of candidates: the compiled `TextMatcher` is kept with the
/// statement (`sqlite3_set_auxdata`, once per query instead of once per row) and values are
/// read without building an argument array. Measured: about 5 µs → 1 µs per candidate.
enum StoreFunctions {
  /// Marks a `lumen_match` call as a free-text term (`TextMatcher.freeTextTerm`).
  static let freeTextMode = 0x100
  /// Makes `lumen_match_any` ask whether some value does NOT match.
  static let negatedMode = 0x200

  static func register(in db: Database) {
    guard let connection = db.sqliteConnection else { return }
    let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
    sqlite3_create_function_v2(connection, "lumen_match", 3, flags, nil, match, nil, nil, nil)
    sqlite3_create_function_v2(
      connection, "lumen_match_any", -1, flags, nil, matchAny, nil, nil, nil)
    sqlite3_create_function_v2(
      connection, "lumen_match_lines", 3, flags, nil, matchLines, nil, nil, nil)
    sqlite3_create_function_v2(connection, "lumen_compare", 3, flags, nil, compare, nil, nil, nil)
  }

  typealias Arguments = UnsafeMutablePointer<OpaquePointer?>?

  private static let match: @convention(c) (OpaquePointer?, Int32, Arguments) -> Void = {
    context, _, arguments in
    guard let arguments, let matcher = StoreFunctions.matcher(context, arguments, pattern: 1),
      let value = StoreFunctions.text(arguments[0])
    else { return sqlite3_result_int(context, 0) }
    sqlite3_result_int(context, matcher.matcher.matches(value) ? 1 : 0)
  }

  private static let matchAny: @convention(c) (OpaquePointer?, Int32, Arguments) -> Void = {
    context, count, arguments in
    guard let arguments, count >= 2,
      let matcher = StoreFunctions.matcher(context, arguments, pattern: 0)
    else { return sqlite3_result_int(context, 0) }
    let wanted = !matcher.negated
    for index in 2..<Int(count) {
      if let value = StoreFunctions.text(arguments[index]), matcher.matcher.matches(value) == wanted
      {
        return sqlite3_result_int(context, 1)
      }
    }
    sqlite3_result_int(context, 0)
  }

  private static let matchLines: @convention(c) (OpaquePointer?, Int32, Arguments) -> Void = {
    context, _, arguments in
    guard let arguments, let matcher = StoreFunctions.matcher(context, arguments, pattern: 1),
      let document = StoreFunctions.text(arguments[0])
    else { return sqlite3_result_int(context, 0) }
    for line in document.split(separator: "\n")
    where line != SearchDocuments.valueBreak && matcher.matcher.matches(String(line)) {
      return sqlite3_result_int(context, 1)
    }
    sqlite3_result_int(context, 0)
  }

  private static let compare: @convention(c) (OpaquePointer?, Int32, Arguments) -> Void = {
    context, _, arguments in
    guard let arguments, let value = StoreFunctions.text(arguments[0]),
      let text = StoreFunctions.text(arguments[1])
    else { return sqlite3_result_null(context) }
    let bits = sqlite3_value_int64(arguments[2])
    let order = TextOrdering.compare(
      value, text, modifiers: TextModifiers(rawValue: UInt8(truncatingIfNeeded: bits)))
    sqlite3_result_int(context, order < 0 ? -1 : (order > 0 ? 1 : 0))
  }

  /// A TEXT argument as a Swift string; nil for NULL and other types.
  private static func text(_ value: OpaquePointer?) -> String? {
    guard sqlite3_value_type(value) == SQLITE_TEXT, let bytes = sqlite3_value_text(value) else {
      return nil
    }
    let count = Int(sqlite3_value_bytes(value))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  // MARK: Compiled matchers

  /// A matcher kept as auxiliary data of its pattern argument.
  final class CompiledMatcher {
    let matcher: TextMatcher
    let negated: Bool
    init(matcher: TextMatcher, negated: Bool) {
      self.matcher = matcher
      self.negated = negated
    }
  }

  private static let release: @convention(c) (UnsafeMutableRawPointer?) -> Void = { pointer in
    guard let pointer else { return }
    Unmanaged<CompiledMatcher>.fromOpaque(pointer).release()
  }

  /// The matcher for the pattern at argument `pattern` and the mode after it, compiled once per
  /// statement and kept by SQLite with the (constant) pattern argument.
  private static func matcher(
    _ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>, pattern: Int32
  ) -> CompiledMatcher? {
    if let cached = sqlite3_get_auxdata(context, pattern) {
      return Unmanaged<CompiledMatcher>.fromOpaque(cached).takeUnretainedValue()
    }
    guard let encoded = text(arguments[Int(pattern)]),
      sqlite3_value_type(arguments[Int(pattern) + 1]) == SQLITE_INTEGER
    else { return nil }
    let bits = Int(sqlite3_value_int64(arguments[Int(pattern) + 1]))
    let textMatcher: TextMatcher?
    if bits & freeTextMode != 0 {
      textMatcher = TextMatcher.freeTextTerm(encoded)
    } else if let pattern = TextPattern(encoded: encoded) {
      textMatcher = TextMatcher(
        pattern: pattern, modifiers: TextModifiers(rawValue: UInt8(truncatingIfNeeded: bits)))
    } else {
      textMatcher = nil  // not written by `TextPattern.encoded`: matches nothing
    }
    guard let textMatcher else { return nil }
    let compiled = CompiledMatcher(matcher: textMatcher, negated: bits & negatedMode != 0)
    // SQLite takes the reference and calls `release` when the statement no longer needs it;
    // it may also call it at once, so the local reference keeps this call's use safe.
    sqlite3_set_auxdata(context, pattern, Unmanaged.passRetained(compiled).toOpaque(), release)
    return compiled
  }
}
