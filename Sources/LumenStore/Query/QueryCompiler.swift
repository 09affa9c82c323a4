import Foundation
import GRDB
import LumenModel
import LumenQuery

/// Compiles a query AST to one SQL condition over `item`, with the same meaning as
/// `QueryEvaluator` (see its documentation for the rules: missing attributes never match,
/// multi-valued attributes match when any value does, `!=` when any value differs…).
///
/// Values only ever travel as bound parameters (`?1`, `?2`…); the only names spliced into the
/// SQL are column names from the frozen schema. Conditions are written so that SQLite can drive
/// them from an index: equality and prefixes become `=` and range scans on indexed columns,
/// substrings and case/diacritic-insensitive text go through the trigram index, word matches
/// and free text through the FTS5 word index, content-type trees through the small
/// `content_type` tables. Each candidate an index yields is then checked exactly by the query
/// language's own `TextMatcher`, registered as a deterministic SQLite function; only what no
/// index can answer (say `!=`, or `c` on a non-name attribute) is checked row by row, still
/// inside SQLite.
///
/// Every condition this produces is 0 or 1, never NULL, so `NOT` is exact.
struct QueryCompiler {
  let registry: AttributeRegistry
  let layout: StorageLayout
  /// `attribute.id` by name, for attributes stored in `value`.
  let attributeIDs: [String: Int64]
  private(set) var arguments: [DatabaseValue] = []
  /// Word-index MATCH expressions of the free-text terms, for ranking by bm25.
  private(set) var rankingMatches: [String] = []
  /// The full-text match every result must satisfy, when the query has one at its top level: the
  /// search then starts from that FTS5 table (a join) instead of collecting all its matches
  /// first (an `IN` subquery), so the first results of a broad match come at once.
  private(set) var driver: Driver?
  private var mayDrive = false
  /// Compiling an operand of `&&`, where a sibling may be the better way in.
  private(set) var inConjunction = false

  struct Driver {
    let table: String
    let match: String
    let isFreeText: Bool
  }

  /// Whether `item_fts` and `item_trigram` are up to date. During a bulk load they are not
  /// (`DeferredFullText`): every full-text candidate set is then "all rows", which is sound
  /// because each is ANDed with an exact check of the row, and there is no bm25 ranking.
  let fullTextReady: Bool

  init(
    registry: AttributeRegistry, layout: StorageLayout, attributeIDs: [String: Int64],
    fullTextReady: Bool = true
  ) {
    self.registry = registry
    self.layout = layout
    self.attributeIDs = attributeIDs
    self.fullTextReady = fullTextReady
  }

  /// A numbered parameter holding `value`.
  mutating func bind(_ value: (any DatabaseValueConvertible)?) -> String {
    arguments.append(value?.databaseValue ?? .null)
    return "?\(arguments.count)"
  }

  /// How deeply operators may nest (`&&` and `||` chains count once, however long): far beyond
  /// any query a person writes, and well within the thread stacks the reads run on.
  static let maximumNesting = 100
  private var nesting = 0
  /// At most this many comparisons: SQLite's planning time grows faster than linearly with the
  /// number of terms, and no one types a thousand comparisons.
  static let maximumComparisons = 1000
  private var comparisons = 0
  /// Set when the query nests deeper than `maximumNesting` or has more than
  /// `maximumComparisons`; the condition is then unusable.
  private(set) var isTooDeep = false

  /// Set once a condition seeks an attribute index generation by generation: the statement
  /// must then define `item_generation` (`generationTable`).
  private(set) var usesGenerations = false

  /// The columns whose index is keyed by generation (`StoreMigrations.attributeIndex`).
  static let generationIndexedColumns = Set(StoreMigrations.v1IndexedColumns)

  /// The columns of the `&&` chain being compiled that have their generation term already.
  private var seekedInConjunction: Set<String>?
  /// How many negations enclose the expression being compiled.
  private var negations = 0

  /// ` AND ((item.id >> 12) & 1023) IN item_generation`, to put after a comparison on `column` that its
  /// index answers, or "" when the column has no index. The attribute indexes are keyed by
  /// (generation, value) (see `StoreMigrations.generationShift`): SQLite can seek such an index
  /// by value only once the generation is pinned, and an `IN` over every generation makes it
  /// seek each one. The term is true of every row, so it changes no result; where SQLite
  /// drives the search from another index it is a lookup per row, so it comes after the
  /// comparison (rows that fail it skip the lookup) and once per column in an `&&` chain
  /// (`fileSize > 1000000 && fileSize < 2000000` seeks with one and would check the other).
  mutating func generationTerm(_ column: String) -> String {
    guard Self.generationIndexedColumns.contains(column), negations == 0 else { return "" }
    usesGenerations = true
    if seekedInConjunction != nil {
      guard seekedInConjunction!.insert(column).inserted else { return "" }
    }
    return " AND ((item.id >> \(StoreMigrations.generationShift)) "
      + "& \(StoreMigrations.generationCount - 1)) IN item_generation"
  }

  /// The common table expression `generationTerm` names: every generation from the first to
  /// the one of the largest row id (the largest row id is the end of the table's b-tree), or
  /// all of them once row ids have gone round (`StoreMigrations.generationCount`).
  static let generationTable = """
    item_generation(generation) AS (SELECT 0 UNION ALL SELECT generation + 1 \
    FROM item_generation WHERE generation < min(\(StoreMigrations.generationCount - 1), \
    (SELECT max(id) FROM item) >> \(StoreMigrations.generationShift)))
    """

  /// `topLevel`: the expression is the query or one of its top-level `&&` operands, so a
  /// full-text match it requires may drive the whole search.
  mutating func condition(_ expression: QueryExpression, topLevel: Bool = false) -> String {
    nesting += 1
    defer { nesting -= 1 }
    guard nesting <= Self.maximumNesting else {
      isTooDeep = true
      return "0"
    }
    switch expression {
    case .constant(let value): return value ? "1" : "0"
    case .not(var operand):
      // `!!x` is `x`: every condition here is 0 or 1.
      var negated = true
      while case .not(let inner) = operand {
        operand = inner
        negated.toggle()
      }
      // No index seeks under a negation, so no generation terms there either.
      if negated { negations += 1 }
      let inner = condition(operand, topLevel: topLevel && !negated)
      if negated { negations -= 1 }
      return negated ? "(NOT \(inner))" : inner
    case .and:
      let outer = inConjunction
      inConjunction = true
      let outerSeeks = seekedInConjunction
      // A nested chain (`a && (b && c)`) shares its parent's terms.
      seekedInConjunction = outerSeeks ?? []
      defer {
        inConjunction = outer
        seekedInConjunction = outerSeeks
      }
      let operands = Self.chain(expression, and: true)
      let parts = operands.map { condition($0, topLevel: topLevel) }
      // SQLite tests a row's terms in the order written: plain column comparisons first, so
      // that a text match (a `TextMatcher` call) or a subquery runs only for the rows that
      // pass them (the `&&`/`||` mix of bench/query counts 67,000 name candidates of which a
      // quarter pass `fileSize > 4000000`). Every term is 0 or 1 without side effects, so the
      // order changes nothing else; the operands were compiled in their own order above, so
      // the choice of the full-text driver is unchanged too.
      let cheap = operands.map(isColumnComparison)
      let ordered =
        zip(parts, cheap).filter { $0.1 }.map(\.0)
        + zip(parts, cheap).filter { !$0.1 }.map(\.0)
      return Self.balanced(ordered, "AND")
    case .or:
      let outer = inConjunction
      inConjunction = false
      let outerSeeks = seekedInConjunction
      // Each branch of `||` is searched on its own and needs its own terms.
      seekedInConjunction = nil
      defer {
        inConjunction = outer
        seekedInConjunction = outerSeeks
      }
      let parts = Self.chain(expression, and: false).map { condition($0) }
      return Self.balanced(parts, "OR")
    case .comparison(let comparison):
      guard counted(1) else { return "0" }
      mayDrive = topLevel
      defer { mayDrive = false }
      return self.comparison(comparison)
    case .inRange(let attribute, let lower, let upper):
      guard counted(1) else { return "0" }
      return inRange(attribute, lower, upper)
    case .freeText(let terms):
      guard counted(terms.count) else { return "0" }
      mayDrive = topLevel
      defer { mayDrive = false }
      return freeText(terms)
    }
  }

  /// A comparison of a number, date or boolean kept in a column of `item`: one column read,
  /// no function call, no subquery.
  func isColumnComparison(_ expression: QueryExpression) -> Bool {
    let key: AttributeKey
    switch expression {
    case .comparison(let comparison):
      guard case .key(let compared) = comparison.attribute else { return false }
      switch comparison.value {
      case .number, .date, .bool: key = compared
      case .text: return false
      }
    case .inRange(.key(let compared), let lower, _):
      switch lower {
      case .number, .date, .bool: key = compared
      case .text: return false
      }
    default:
      return false
    }
    if case .column = layout.storage(for: key) { return true }
    return false
  }

  private mutating func counted(_ number: Int) -> Bool {
    comparisons += number
    if comparisons > Self.maximumComparisons { isTooDeep = true }
    return !isTooDeep
  }

  /// The operands of a chain of `&&` (or `||`), in order, found without recursion: a query
  /// generated from a list of ten thousand names is one long chain.
  static func chain(_ expression: QueryExpression, and: Bool) -> [QueryExpression] {
    var operands: [QueryExpression] = []
    var stack = [expression]
    while let next = stack.popLast() {
      switch (next, and) {
      case (.and(let left, let right), true), (.or(let left, let right), false):
        stack.append(right)
        stack.append(left)
      default:
        operands.append(next)
      }
    }
    return operands
  }

  /// `parts` joined by `op` as a balanced tree of parentheses: SQLite limits both the nesting
  /// of parentheses and the depth of an expression tree (1000), and a flat chain of n terms is
  /// n deep; balanced, it is log₂ n.
  static func balanced(_ parts: [String], _ op: String) -> String {
    if parts.count <= 8 { return "(" + parts.joined(separator: " \(op) ") + ")" }
    let middle = parts.count / 2
    return "(" + balanced(Array(parts[..<middle]), op) + " \(op) "
      + balanced(Array(parts[middle...]), op) + ")"
  }

  /// "The item matches `match` in `table`", for a match the surrounding condition requires
  /// (`required`): the first such at the top level becomes the driver and is left out here.
  mutating func fullText(
    _ table: String, _ match: String, required: Bool, freeText: Bool = false
  ) -> String {
    guard fullTextReady else { return "1" }
    let parameter = bind(match)
    if required && mayDrive && driver == nil {
      driver = Driver(table: table, match: parameter, isFreeText: freeText)
      return "1"
    }
    return "item.id IN (SELECT rowid FROM \(table) WHERE \(table) MATCH \(parameter))"
  }

  // MARK: Comparisons

  private mutating func comparison(_ comparison: Comparison) -> String {
    switch comparison.attribute {
    case .anySearchable:
      guard case .text(let pattern) = comparison.value else { return "0" }
      return anySearchable(
        TextTest(pattern: pattern, op: comparison.op, modifiers: comparison.modifiers))
    case .key(let key):
      switch comparison.value {
      case .text(let pattern):
        guard key.valueType == .text else { return "0" }
        return text(
          key, TextTest(pattern: pattern, op: comparison.op, modifiers: comparison.modifiers))
      case .number(let number):
        guard key.valueType == .number, !number.isNaN else { return "0" }
        return scalar(key, comparison.op, number)
      case .date(let date):
        let seconds = date.timeIntervalSinceReferenceDate
        guard key.valueType == .date, !seconds.isNaN else { return "0" }
        return scalar(key, comparison.op, seconds)
      case .bool(let flag):
        guard key.valueType == .bool, comparison.op == .equal || comparison.op == .notEqual
        else { return "0" }
        return scalar(key, comparison.op, flag ? 1.0 : 0.0)
      }
    }
  }

  /// Numbers, dates (seconds since 2001) and booleans (0/1): plain SQL comparisons, which an
  /// index on the column or on (attribute, value) answers.
  private mutating func scalar(_ key: AttributeKey, _ op: ComparisonOperator, _ value: Double)
    -> String
  {
    let parameter = bind(value)
    return anyValue(of: key, seekable: op != .notEqual) { "\($0) \(op.sql) \(parameter)" }
  }

  private mutating func inRange(
    _ attribute: QueryAttribute, _ lower: QueryValue, _ upper: QueryValue
  ) -> String {
    switch (lower, upper) {
    case (.text(let low), .text(let high)):
      guard let lowText = low.literalText, let highText = high.literalText else { return "0" }
      let test = TextRangeTest(lower: lowText, upper: highText)
      switch attribute {
      case .anySearchable: return anySearchableRange(test)
      case .key(let key): return key.valueType == .text ? textRange(key, test) : "0"
      }
    case (.number(let low), .number(let high)):
      guard case .key(let key) = attribute, key.valueType == .number, !low.isNaN, !high.isNaN
      else { return "0" }
      return between(key, low, high)
    case (.date(let low), .date(let high)):
      let (lowSeconds, highSeconds) = (
        low.timeIntervalSinceReferenceDate, high.timeIntervalSinceReferenceDate
      )
      guard case .key(let key) = attribute, key.valueType == .date, !lowSeconds.isNaN,
        !highSeconds.isNaN
      else { return "0" }
      return between(key, lowSeconds, highSeconds)
    case (.bool(let low), .bool(let high)):
      guard case .key(let key) = attribute, key.valueType == .bool else { return "0" }
      return between(key, low ? 1 : 0, high ? 1 : 0)
    default:
      return "0"
    }
  }

  private mutating func between(_ key: AttributeKey, _ low: Double, _ high: Double) -> String {
    let (lowParameter, highParameter) = (bind(low), bind(high))
    return anyValue(of: key, seekable: true) {
      "\($0) BETWEEN \(lowParameter) AND \(highParameter)"
    }
  }

  // MARK: Free text

  /// Each term must match some searchable-by-default value (`TextMatcher.freeTextTerm`).
  /// Candidates come from the word index (all terms at once); each term is then checked on the
  /// item's words document, which holds the folded words of exactly those values.
  private mutating func freeText(_ terms: [String]) -> String {
    var checks: [String] = []
    var matches: [String] = []
    for term in terms {
      guard TextMatcher.freeTextTerm(term) != nil else { continue }
      let pattern = bind(term)
      let mode = bind(StoreFunctions.freeTextMode)
      let check = "lumen_match_lines(\(Self.wordsDocument), \(pattern), \(mode))"
      guard let (match, exact) = FullTextPieces.freeTextTerm(term) else {
        checks.append(check)
        continue
      }
      guard fullTextReady else {
        checks.append(check)
        continue
      }
      matches.append(match)
      // An ASCII words document matched by the word index needs no second look.
      checks.append(exact ? "((item.flags & 8) = 8 OR \(check))" : check)
    }
    guard !checks.isEmpty else { return "1" }
    rankingMatches += matches
    var parts = checks
    if !matches.isEmpty {
      let match = matches.map { "(\($0))" }.joined(separator: " AND ")
      parts.insert(fullText("item_fts", match, required: true, freeText: true), at: 0)
    }
    return "(" + parts.joined(separator: " AND ") + ")"
  }
}

extension ComparisonOperator {
  var sql: String {
    switch self {
    case .equal: "="
    case .notEqual: "!="
    case .less: "<"
    case .greater: ">"
    case .lessOrEqual: "<="
    case .greaterOrEqual: ">="
    }
  }
}
