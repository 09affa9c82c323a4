import LumenModel

/// Recursive descent over `QueryLexer`'s tokens:
///
///     query      := or END
///     or         := and ("||" and)*
///     and        := unary ("&&" unary)*
///     unary      := "!" unary | primary
///     primary    := "(" or ")" | "true" | "false" | inRange | comparison
///     inRange    := "InRange" "(" attribute "," value "," value ")"      (name case-insensitive)
///     comparison := attribute op ("[" modifiers "]")? value modifiers?
///     attribute  := name | "*"
///
/// `&&` binds tighter than `||`. A chain of one operator is built as a balanced tree (`a && b
/// && c && d` is `(a && b) && (c && d)`); both operators are associative, so the meaning is the
/// same and a machine-written query with thousands of terms stays shallow. Nesting through
/// parentheses and `!` is capped at `maximumDepth` so no input can exhaust the stack. A query
/// holds at most `maximumConditions` comparisons, and joins at most `maximumConjuncts` of its
/// parts with `&&` at the top: SQLite's planner joins all the other `&&` terms of a query to
/// each `||` it optimises, into one left-deep tree, which past about a thousand terms it
/// refuses ("expression tree is too large") after quadratic work. Long `||` chains are fine.
struct ExpressionParser {
  static let maximumDepth = 200
  static let maximumConditions = 10_000
  static let maximumConjuncts = 256

  private var lexer: QueryLexer
  private var current: QueryToken
  private var depth = 0
  /// Where each comparison starts, in the order parsed (the order of the tree's leaves).
  private var conditionOffsets: [Int] = []
  let registry: AttributeRegistry
  let time: TimeValueResolver

  init(_ text: String, registry: AttributeRegistry, time: TimeValueResolver) throws(SyntaxFailure) {
    var lexer = QueryLexer(text)
    self.current = try lexer.next()
    self.lexer = lexer
    self.registry = registry
    self.time = time
  }

  mutating func parseQuery() throws(SyntaxFailure) -> QueryExpression {
    if case .end = current.kind { throw SyntaxFailure(at: 0, "empty query") }
    let expression = try parseOr()
    guard case .end = current.kind else {
      throw SyntaxFailure(
        at: current.offset, "expected '&&', '||' or the end of the query, found \(current.quoted)")
    }
    try checkConjuncts(expression)
    return expression
  }

  // MARK: Tokens

  mutating func advance() throws(SyntaxFailure) {
    current = try lexer.next()
  }

  /// The token after the current one, without consuming anything.
  func peekNext() throws(SyntaxFailure) -> QueryToken {
    var copy = lexer
    return try copy.next()
  }

  var currentToken: QueryToken { current }

  // MARK: Boolean structure

  private mutating func parseOr() throws(SyntaxFailure) -> QueryExpression {
    var terms = [try parseAnd()]
    while case .or = current.kind {
      try advance()
      terms.append(try parseAnd())
    }
    return Self.balanced(terms[...], QueryExpression.or)
  }

  private mutating func parseAnd() throws(SyntaxFailure) -> QueryExpression {
    var terms = [try parseUnary()]
    while case .and = current.kind {
      try advance()
      terms.append(try parseUnary())
    }
    return Self.balanced(terms[...], QueryExpression.and)
  }

  private static func balanced(
    _ terms: ArraySlice<QueryExpression>,
    _ combine: (QueryExpression, QueryExpression) -> QueryExpression
  ) -> QueryExpression {
    if terms.count == 1, let only = terms.first { return only }
    let middle = terms.startIndex + (terms.count + 1) / 2
    return combine(balanced(terms[..<middle], combine), balanced(terms[middle...], combine))
  }

  private mutating func parseUnary() throws(SyntaxFailure) -> QueryExpression {
    guard case .not = current.kind else { return try parsePrimary() }
    try enterNesting()
    try advance()
    let operand = try parseUnary()
    depth -= 1
    return .not(operand)
  }

  /// Counts one more comparison (or InRange), starting at the current token.
  private mutating func countCondition() throws(SyntaxFailure) {
    guard conditionOffsets.count < Self.maximumConditions else {
      throw SyntaxFailure(
        at: current.offset,
        "query has too many conditions (more than \(Self.maximumConditions))")
    }
    conditionOffsets.append(current.offset)
  }

  /// Refuses more than `maximumConjuncts` parts joined by `&&` at the top of the query (through
  /// parentheses, which SQLite sees through too), pointing at the first part too many.
  private func checkConjuncts(_ expression: QueryExpression) throws(SyntaxFailure) {
    var conjuncts = 0
    var conditionsBefore = 0
    var pending = [expression]
    while let next = pending.popLast() {
      if case .and(let left, let right) = next {
        pending.append(right)
        pending.append(left)
        continue
      }
      let conditions = Self.conditionCount(next)
      if conditions > 0 { conjuncts += 1 }
      if conjuncts > Self.maximumConjuncts {
        throw SyntaxFailure(
          at: conditionOffsets[conditionsBefore],
          "query joins too many conditions with && (more than \(Self.maximumConjuncts))")
      }
      conditionsBefore += conditions
    }
  }

  /// Comparisons and InRanges in an expression.
  private static func conditionCount(_ expression: QueryExpression) -> Int {
    var count = 0
    var pending = [expression]
    while let next = pending.popLast() {
      switch next {
      case .and(let left, let right), .or(let left, let right):
        pending.append(left)
        pending.append(right)
      case .not(let operand): pending.append(operand)
      case .comparison, .inRange: count += 1
      case .constant, .freeText: break
      }
    }
    return count
  }

  private mutating func enterNesting() throws(SyntaxFailure) {
    depth += 1
    guard depth <= Self.maximumDepth else {
      throw SyntaxFailure(
        at: current.offset, "query nested too deeply (more than \(Self.maximumDepth) levels)")
    }
  }

  private mutating func parsePrimary() throws(SyntaxFailure) -> QueryExpression {
    switch current.kind {
    case .leftParenthesis:
      try enterNesting()
      try advance()
      let inner = try parseOr()
      guard case .rightParenthesis = current.kind else {
        throw SyntaxFailure(
          at: current.offset, "missing ')': expected ')' to close a '(', found \(current.quoted)")
      }
      try advance()
      depth -= 1
      return inner
    case .word(let word):
      let next = try peekNext()
      if case .leftParenthesis = next.kind, word.lowercased() == "inrange" {
        return try parseInRange()
      }
      if case .comparison = next.kind {
        return try parseComparison()
      }
      if case .bracketModifiers = next.kind {
        return try parseComparison()
      }
      switch word.lowercased() {
      case "true":
        try advance()
        return .constant(true)
      case "false":
        try advance()
        return .constant(false)
      default: return try parseComparison()
      }
    case .star:
      return try parseComparison()
    case .string:
      throw SyntaxFailure(
        at: current.offset, "expected an attribute name before the value, as in title == \"…\"")
    case .end:
      throw SyntaxFailure(at: current.offset, "expected an expression, found the end of the query")
    default:
      throw SyntaxFailure(
        at: current.offset,
        "expected an attribute name, '(', '!', true or false, found \(current.quoted)")
    }
  }

  // MARK: Comparisons

  /// `attr op value`, `attr op [mods] value`.
  private mutating func parseComparison() throws(SyntaxFailure) -> QueryExpression {
    try countCondition()
    let attribute = try parseAttribute()
    guard case .comparison(let op) = current.kind else {
      throw SyntaxFailure(
        at: current.offset,
        "expected a comparison operator (==, !=, <, >, <=, >=) after the attribute, found \(current.quoted)"
      )
    }
    try advance()
    var modifiers: TextModifiers = []
    var modifiersOffset: Int? = nil
    if case .bracketModifiers(let bracketed) = current.kind {
      modifiers = bracketed
      modifiersOffset = current.offset
      try advance()
    }
    let comparison = try typedComparison(
      attribute: attribute, op: op, modifiers: modifiers, modifiersOffset: modifiersOffset)
    return .comparison(comparison)
  }

  /// An attribute name resolved through the registry, or `*`.
  mutating func parseAttribute() throws(SyntaxFailure) -> QueryAttribute {
    let token = current
    switch token.kind {
    case .star:
      try advance()
      return .anySearchable
    case .word(let name):
      guard let key = registry.key(named: name) else {
        throw SyntaxFailure(at: token.offset, "unknown attribute '\(name)'")
      }
      guard key.isSearchable else {
        throw SyntaxFailure(at: token.offset, "attribute '\(name)' is not searchable")
      }
      try advance()
      return .key(key)
    default:
      throw SyntaxFailure(
        at: token.offset, "expected an attribute name or '*', found \(token.quoted)")
    }
  }

  /// `InRange(attr, min, max)`: both ends inclusive.
  private mutating func parseInRange() throws(SyntaxFailure) -> QueryExpression {
    try countCondition()
    try advance()  // InRange
    try advance()  // (
    let arityMessage = "InRange takes three arguments: InRange(attribute, minimum, maximum)"
    if case .rightParenthesis = current.kind {
      throw SyntaxFailure(at: current.offset, arityMessage)
    }
    let attribute = try parseAttribute()
    var bounds: [QueryValue] = []
    for _ in 0..<2 {
      switch current.kind {
      case .comma: try advance()
      case .rightParenthesis: throw SyntaxFailure(at: current.offset, arityMessage)
      default:
        throw SyntaxFailure(at: current.offset, "expected ',' in InRange, found \(current.quoted)")
      }
      bounds.append(try rangeBound(for: attribute))
    }
    switch current.kind {
    case .rightParenthesis: try advance()
    case .comma: throw SyntaxFailure(at: current.offset, arityMessage)
    default:
      throw SyntaxFailure(
        at: current.offset, "missing ')' to close InRange, found \(current.quoted)")
    }
    return .inRange(attribute: attribute, lower: bounds[0], upper: bounds[1])
  }
}
