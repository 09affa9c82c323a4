import LumenModel
import LumenQuery

extension QueryCompiler {
  /// The exact test of one value (NULL-safe only when the value is not NULL).
  mutating func check(_ test: TextTest) -> ((String) -> String)? {
    if test.isMatch {
      let pattern = bind(test.pattern.encoded)
      let mode = bind(Int(test.modifiers.rawValue))
      let negation = test.op == .notEqual ? "NOT " : ""
      return { "\(negation)lumen_match(\($0), \(pattern), \(mode))" }
    }
    guard let literal = test.pattern.literalText else { return nil }
    let text = bind(literal)
    let mode = bind(Int(test.modifiers.rawValue))
    let op = test.op.sql
    return { "IFNULL(lumen_compare(\($0), \(text), \(mode)) \(op) 0, 0)" }
  }

  /// Equality, prefixes and orderings without `c d w t` map to plain comparisons of the raw
  /// column with the pattern's NFC form (`TextFolding` with no modifiers).
  mutating func indexPlan(_ test: TextTest) -> IndexPlan {
    guard !test.folds, !test.byWords else { return .none }
    let normal = { (text: String) in
      TextFolding.fold(text, caseInsensitive: false, diacriticInsensitive: false)
    }
    if !test.isMatch {
      guard let literal = test.pattern.literalText else { return .none }
      let parameter = bind(normal(literal))
      let op = test.op.sql
      return .exact { "\($0) \(op) \(parameter)" }
    }
    guard test.op == .equal else { return .none }
    let segments = test.pattern.segments
    if let literal = test.pattern.literalText {
      let parameter = bind(normal(literal))
      return .exact { "\($0) = \(parameter)" }
    }
    if segments == [.wildcard] { return .exact { _ in "1" } }
    guard case .literal(let first) = segments.first else { return .none }
    let range = prefixRange(normal(first))
    return segments.count == 2 ? .exact(range) : .candidate(range)
  }

  mutating func prefixRange(_ prefix: String) -> (String) -> String {
    let low = bind(prefix)
    guard let upper = TextBounds.upperBound(ofPrefix: prefix) else { return { "\($0) >= \(low)" } }
    let high = bind(upper)
    return { "(\($0) >= \(low) AND \($0) < \(high))" }
  }

  /// Candidates from the full-text indexes for a positive match (the caller ANDs them with the
  /// exact check), when they can give any: the
  /// word index for `w`/`t` on searchable-by-default attributes, the trigram index for the
  /// name-like ones (searchable by default, except `textContent`).
  mutating func fullTextCandidates(_ key: AttributeKey?, _ test: TextTest) -> String? {
    guard test.op == .equal else { return nil }
    let row = key.map { registry.key(named: $0.name) ?? $0 }
    let searchable = row.map { $0.isSearchableByDefault && $0.valueType == .text } ?? true
    guard searchable else { return nil }
    if test.byWords, let match = FullTextPieces.words(test.pattern) {
      return fullText("item_fts", match, required: true)
    }
    let isBody = row.map { !$0.isCustom && $0.name == AttributeKey.textContent.name } ?? false
    let match =
      isBody
      ? FullTextPieces.anchoredTrigram(test.pattern, modifiers: test.modifiers)
      : FullTextPieces.trigram(test.pattern, modifiers: test.modifiers)
    guard let match else { return nil }
    return fullText("item_trigram", match, required: true)
  }

  // MARK: One attribute

  mutating func text(_ key: AttributeKey, _ test: TextTest) -> String {
    let plan = indexPlan(test)
    guard let check = check(test) else { return "0" }
    let storage = layout.storage(for: key)
    // `fileName` has no index of its own (see migration v2): its candidates always come from
    // the trigram index when the pattern allows.
    let indexed = if case .none = plan { false } else { storage != .fileName }
    if !indexed, let candidates = fullTextCandidates(key, test) {
      return "(\(candidates) AND \(anyValueOfRow(of: key, check)))"
    }
    switch storage {
    case .column(let column):
      return Self.flagged(plan, "item.\"\(column)\"", check, seek: generationTerm(column))
    case .fileName:
      return anyValue(of: key) { value in Self.flagged(plan, value, check) }
    case .path:
      return path(plan: plan, test: test, check: check)
    case .values:
      return values(key, plan: plan, check: check)
    case .contentType, .contentTypeTree, .textContent:
      return anyValue(of: key, check)
    }
  }

  /// `plan` for NFC rows, `check` for flagged ones, on a value of the row itself (NULL-safe:
  /// each branch tests the value itself, the shape SQLite plans fastest in long `&&` chains).
  /// `seek`: the generation term of the value's index (`generationTerm`), for the branch
  /// that index answers.
  static func flagged(
    _ plan: IndexPlan, _ value: String, _ check: (String) -> String, seek: String = ""
  ) -> String {
    let present = "\(value) IS NOT NULL"
    switch plan {
    case .exact(let condition):
      return """
        (((item.flags & 4) = 0 AND \(present) AND \(condition(value))\(seek)) \
        OR ((item.flags & 4) = 4 AND \(present) AND \(check(value))))
        """
    case .candidate(let condition):
      return """
        (((item.flags & 4) = 0 AND \(present) AND \(condition(value))\(seek) AND \(check(value))) \
        OR ((item.flags & 4) = 4 AND \(present) AND \(check(value))))
        """
    case .none:
      return "(\(present) AND \(check(value)))"
    }
  }

  private mutating func values(
    _ key: AttributeKey, plan: IndexPlan, check: @escaping (String) -> String
  ) -> String {
    switch plan {
    case .none:
      return anyValue(of: key, check)
    case .exact(let condition), .candidate(let condition):
      let isExact = if case .exact = plan { true } else { false }
      let normal = anyValue(of: key) {
        isExact ? condition($0) : "\(condition($0)) AND \(check($0))"
      }
      let unnormal = anyValueOfRow(of: key, check)
      return "(((item.flags & 4) = 0 AND \(normal)) OR ((item.flags & 4) = 4 AND \(unnormal)))"
    }
  }

  /// `path` is stored as folder + name: equality and prefixes become lookups of `directory`
  /// and the (dir_id, name) index.
  private mutating func path(
    plan: IndexPlan, test: TextTest, check: @escaping (String) -> String
  ) -> String {
    let value = Self.valueExpression(.path)!
    let generic = Self.flagged(plan, value, check)
    guard test.isMatch, case .literal(let first) = test.pattern.segments.first else {
      return generic
    }
    let normal = TextFolding.fold(first, caseInsensitive: false, diacriticInsensitive: false)
    let split = StoredPath(normal)
    let condition: String
    let isExact: Bool
    switch plan {
    case .none:
      return generic
    case .exact where test.pattern.literalText != nil:
      isExact = true
      let name = bind(split.name)
      if let directory = split.directory {
        condition = """
          (item.dir_id IS NOT NULL AND item.dir_id IN (SELECT id FROM directory WHERE path = \
          \(bind(directory))) AND item.name = \(name))
          """
      } else {
        condition = "(item.dir_id IS NULL AND item.name = \(name))"
      }
    case .exact, .candidate:
      isExact = test.pattern.segments.count == 2
      let folders = prefixRange(normal)("path")
      let names = prefixRange(split.name)("item.name")
      if let directory = split.directory {
        condition = """
          (item.dir_id IS NOT NULL AND (item.dir_id IN (SELECT id FROM directory WHERE \(folders)) \
          OR (item.dir_id IN (SELECT id FROM directory WHERE path = \(bind(directory))) \
          AND item.name IS NOT NULL AND \(names))))
          """
      } else {
        condition = """
          ((item.dir_id IS NOT NULL AND item.dir_id IN (SELECT id FROM directory WHERE \(folders))) \
          OR (item.dir_id IS NULL AND item.name IS NOT NULL AND \(names)))
          """
      }
    }
    let normalRows = isExact ? condition : "(\(condition) AND \(check(value)))"
    return """
      (((item.flags & 4) = 0 AND \(normalRows)) OR ((item.flags & 4) = 4 AND \(value) IS NOT NULL \
      AND \(check(value))))
      """
  }

  mutating func textRange(_ key: AttributeKey, _ test: TextRangeTest) -> String {
    let normal = { (text: String) in
      TextFolding.fold(text, caseInsensitive: false, diacriticInsensitive: false)
    }
    let (low, high) = (bind(normal(test.lower)), bind(normal(test.upper)))
    let (rawLow, rawHigh) = (bind(test.lower), bind(test.upper))
    let check = { (value: String) in
      """
      (IFNULL(lumen_compare(\(value), \(rawLow), 0) >= 0, 0) \
      AND IFNULL(lumen_compare(\(value), \(rawHigh), 0) <= 0, 0))
      """
    }
    let plan = IndexPlan.exact { "\($0) BETWEEN \(low) AND \(high)" }
    switch layout.storage(for: key) {
    case .column(let column):
      return Self.flagged(plan, "item.\"\(column)\"", check, seek: generationTerm(column))
    case .fileName:
      return anyValue(of: key) { Self.flagged(plan, $0, check) }
    case .values:
      return values(key, plan: plan, check: check)
    default:
      return anyValue(of: key, check)
    }
  }
}
