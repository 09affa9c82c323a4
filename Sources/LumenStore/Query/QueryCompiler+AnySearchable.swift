import LumenModel
import LumenQuery

/// `*` as attribute and free text: any value of any searchable-by-default text attribute.
extension QueryCompiler {
  /// The attributes `*` and free text look in: the registry's, so custom keys declared
  /// searchable by default count (the same list `QueryEvaluator` uses).
  var searchableKeys: [AttributeKey] { registry.searchableByDefault }

  /// The current item's words document (see `SearchDocuments`).
  static let wordsDocument = "(SELECT words FROM item_text WHERE item_text.item_id = item.id)"

  mutating func anySearchable(_ test: TextTest) -> String {
    guard test.isMatch else {
      guard let check = check(test) else { return "0" }
      let parts = searchableKeys.map { key in anyValue(of: key, check) }
      return parts.isEmpty ? "0" : "(" + parts.joined(separator: " OR ") + ")"
    }
    let pattern = bind(test.pattern.encoded)
    let mode = Int(test.modifiers.rawValue)
    let negated = test.op == .notEqual
    if test.op == .equal, test.byWords,
      test.modifiers.isSuperset(of: [.caseInsensitive, .diacriticInsensitive]),
      FullTextPieces.hasWords(test.pattern)
    {
      // The words document holds exactly what `cdw` compares: one column to check.
      let check = "lumen_match_lines(\(Self.wordsDocument), \(pattern), \(bind(mode)))"
      guard let match = FullTextPieces.words(test.pattern) else { return check }
      return "(\(fullText("item_fts", match, required: true)) AND \(check))"
    }
    let all = anySearchableCheck(pattern: pattern, mode: mode, negated: negated)
    guard test.op == .equal else { return all }
    if test.byWords, let match = FullTextPieces.words(test.pattern) {
      return "(\(fullText("item_fts", match, required: true)) AND \(all))"
    }
    if let match = FullTextPieces.anchoredTrigram(test.pattern, modifiers: test.modifiers) {
      return "(\(fullText("item_trigram", match, required: true)) AND \(all))"
    }
    if let match = FullTextPieces.trigram(test.pattern, modifiers: test.modifiers) {
      // The trigram index has every searchable value but the body text, which is scanned.
      let names = anySearchableCheck(
        pattern: pattern, mode: mode, negated: false, includingBody: false)
      let trigram = fullText("item_trigram", match, required: false)
      guard searchableKeys.contains(where: isBody) else { return "(\(trigram) AND \(names))" }
      let body = bind(mode)
      return """
        ((\(trigram) AND \(names)) OR item.id IN (SELECT item_id FROM item_text \
        WHERE text_content IS NOT NULL AND lumen_match(text_content, \(pattern), \(body))))
        """
    }
    return all
  }

  mutating func anySearchableRange(_ test: TextRangeTest) -> String {
    let (low, high) = (bind(test.lower), bind(test.upper))
    let check = { (value: String) in
      """
      (IFNULL(lumen_compare(\(value), \(low), 0) >= 0, 0) \
      AND IFNULL(lumen_compare(\(value), \(high), 0) <= 0, 0))
      """
    }
    let parts = searchableKeys.map { key in anyValue(of: key, check) }
    return parts.isEmpty ? "0" : "(" + parts.joined(separator: " OR ") + ")"
  }

  /// Some searchable value matches (or, `negated`, fails to match) `pattern` in `mode`, checked
  /// for the current row: one `lumen_match_any` call over the columns, one probe of `value`
  /// and one of `item_text`.
  mutating func anySearchableCheck(
    pattern: String, mode: Int, negated: Bool, includingBody: Bool = true
  ) -> String {
    var columns: [String] = []
    var valueKeys: [Int64] = []
    var parts: [String] = []
    var hasBody = false
    let modeParameter = bind(mode)
    let negation = negated ? "NOT " : ""
    for key in searchableKeys {
      let storage = layout.storage(for: key)
      if let expression = Self.valueExpression(storage) {
        columns.append(expression)
        continue
      }
      switch storage {
      case .values:
        if let id = attributeIDs[key.name] { valueKeys.append(id) }
      case .textContent:
        hasBody = true
      default:
        let check = { (value: String) in
          "\(negation)lumen_match(\(value), \(pattern), \(modeParameter))"
        }
        parts.append(anyValue(of: key, check))
      }
    }
    if !columns.isEmpty {
      let anyMode = bind(mode | (negated ? StoreFunctions.negatedMode : 0))
      parts.insert(
        "lumen_match_any(\(pattern), \(anyMode), \(columns.joined(separator: ", ")))", at: 0)
    }
    if !valueKeys.isEmpty {
      let ids = valueKeys.map { bind($0) }.joined(separator: ", ")
      parts.append(
        """
        EXISTS (SELECT 1 FROM value WHERE value.item_id = item.id AND attribute_id IN (\(ids)) \
        AND \(negation)lumen_match(value, \(pattern), \(modeParameter)))
        """)
    }
    if hasBody && includingBody {
      parts.append(
        """
        EXISTS (SELECT 1 FROM item_text WHERE item_text.item_id = item.id \
        AND text_content IS NOT NULL AND \(negation)lumen_match(text_content, \(pattern), \(modeParameter)))
        """)
    }
    return parts.isEmpty ? "0" : "(" + parts.joined(separator: " OR ") + ")"
  }

  private func isBody(_ key: AttributeKey) -> Bool {
    layout.storage(for: key) == .textContent
  }
}
