import LumenModel

/// Where the values of an attribute are, as SQL over the row `item`: every builder here yields
/// 0 or 1 for "some value of the attribute satisfies `predicate`", false when there is none.
extension QueryCompiler {
  /// The value of `fileName`, `path`… as one SQL expression (NULL when absent), for attributes
  /// kept in `item` itself.
  static func valueExpression(_ storage: AttributeStorage) -> String? {
    switch storage {
    case .column(let column): return "item.\"\(column)\""
    case .fileName:
      return "(CASE WHEN item.flags & 1 THEN item.name ELSE item.file_name END)"
    case .path:
      return """
        (CASE WHEN item.name IS NULL THEN NULL WHEN item.dir_id IS NULL THEN item.name \
        ELSE (SELECT path FROM directory WHERE directory.id = item.dir_id) || '/' || item.name END)
        """
    default: return nil
    }
  }

  /// Some value of `key` satisfies `predicate`, a SQL test of one non-NULL value expression
  /// that is itself never NULL. Written for index use: a column test is a column comparison,
  /// a multi-valued test an `IN` over the (attribute, value) index.
  ///
  /// `seekable`: the predicate is a comparison an index on the column answers (`=`, `<`,
  /// `BETWEEN`…), so the column's generation term goes with it (`generationTerm`).
  mutating func anyValue(
    of key: AttributeKey, seekable: Bool = false, _ predicate: (String) -> String
  ) -> String {
    let storage = layout.storage(for: key)
    switch storage {
    case .column(let column):
      let value = Self.valueExpression(storage)!
      let seek = seekable ? generationTerm(column) : ""
      return "(\(value) IS NOT NULL AND \(predicate(value))\(seek))"
    case .path:
      let value = Self.valueExpression(storage)!
      return "(\(value) IS NOT NULL AND \(predicate(value)))"
    case .fileName:
      return """
        (((item.flags & 1) = 1 AND item.name IS NOT NULL AND \(predicate("item.name"))) \
        OR ((item.flags & 1) = 0 AND item.file_name IS NOT NULL AND \(predicate("item.file_name"))))
        """
    // Content types are broad (a third of a home folder is images) and SQLite cannot see how
    // many types the subquery yields, so next to another condition the type index is switched
    // off (`+`): `contentTypeTree == 'public.source-code' && fileSize < 1000` then starts from
    // the few small files instead of every source file.
    case .contentType:
      let column = inConjunction ? "+item.type_id" : "item.type_id"
      return """
        (item.type_id IS NOT NULL AND \(column) IN (SELECT id FROM content_type \
        WHERE identifier IS NOT NULL AND \(predicate("identifier"))))
        """
    case .contentTypeTree:
      let column = inConjunction ? "+item.type_id" : "item.type_id"
      return """
        (item.type_id IS NOT NULL AND \(column) IN (SELECT type_id FROM content_type_ancestor \
        WHERE \(predicate("ancestor"))))
        """
    case .textContent:
      return """
        item.id IN (SELECT item_id FROM item_text WHERE text_content IS NOT NULL \
        AND \(predicate("text_content")))
        """
    case .values:
      guard let id = attributeIDs[key.name] else { return "0" }
      let attribute = bind(id)
      return """
        item.id IN (SELECT item_id FROM value WHERE attribute_id = \(attribute) \
        AND \(predicate("value")))
        """
    }
  }

  /// The same, checked only for the current row (a correlated subquery), for when an index has
  /// already narrowed the rows down: probing a few candidates beats materialising every match.
  mutating func anyValueOfRow(of key: AttributeKey, _ predicate: (String) -> String) -> String {
    switch layout.storage(for: key) {
    case .textContent:
      return """
        EXISTS (SELECT 1 FROM item_text WHERE item_text.item_id = item.id \
        AND text_content IS NOT NULL AND \(predicate("text_content")))
        """
    case .values:
      guard let id = attributeIDs[key.name] else { return "0" }
      let attribute = bind(id)
      return """
        EXISTS (SELECT 1 FROM value WHERE value.item_id = item.id \
        AND attribute_id = \(attribute) AND \(predicate("value")))
        """
    default:
      return anyValue(of: key, predicate)
    }
  }
}
