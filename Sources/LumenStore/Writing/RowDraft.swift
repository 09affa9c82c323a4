import GRDB
import LumenModel

/// The part of laying an item out in rows that needs no database: which column or side table
/// each attribute goes to, the values as stored, the path cut in two, the flags, and the
/// full-text documents. Ids (row, folder, domain, type, extractor, attribute) are the writer's
/// to look up.
///
/// Why apart: an index has one writer. In a first crawl of 200,000 files the writer thread was
/// the bottleneck with seven tenths of its time in this Swift work and the walk threads waiting
/// on it; a crawl now drafts each record on the walk thread that made it
/// (`SearchableIndex.draftRows`), and the writer only completes the draft.
struct RowDraft: Sendable {
  /// Column-stored attributes: `item` slot and stored value.
  var cells: [(slot: Int, value: DatabaseValue)] = []
  /// Multi-valued and custom attributes, for `value` rows.
  var values: [(key: AttributeKey, ordinal: Int, value: DatabaseValue)] = []
  var path: StoredPath?
  /// The item is a file item: its identifier is its absolute path, and it has no `uid`.
  var isFileItem = false
  /// `fileName` when it is not the last component of the path.
  var fileName: String?
  var typeIdentifier: String?
  var typeTree: [String]?
  var textContent: String?
  var documents: SearchDocuments
  var flags: ItemFlags = []

  /// The draft of `attributes`. Names that are not built-ins go through `resolve` (which may
  /// declare a custom key in the index, or refuse by returning nil: the attribute is dropped).
  init(
    identifier: String, attributes: AttributeSet, layout: StorageLayout,
    cache: SearchDocuments.FoldCache,
    resolve: (String) throws -> AttributeKey?
  ) rethrows {
    let pathText = attributes.text(.path)
    path = pathText.map(StoredPath.init)
    isFileItem = pathText.map { $0.hasPrefix("/") && $0.isIdentical(to: identifier) } ?? false
    var resolved: [(AttributeKey, [AttributeValue])] = []
    resolved.reserveCapacity(attributes.values.count)
    for (name, list) in attributes.values {
      let key: AttributeKey
      let storage: AttributeStorage
      let slot: Int?
      if let plan = layout.builtInPlans[name] {
        (key, storage, slot) = (plan.key, plan.storage, plan.slot)
      } else {
        guard let custom = try resolve(name) else { continue }
        key = custom
        storage = layout.storage(for: custom)
        if case .column(let column) = storage {
          slot = layout.itemColumns.slots[column]
        } else {
          slot = nil
        }
      }
      resolved.append((key, list))
      if key.valueType == .text, !list.allSatisfy({ $0.text?.isNFC ?? true }) {
        flags.insert(.hasUnnormalizedText)
      }
      switch storage {
      case .column:
        if let stored = list.first?.storedValue, !stored.isNull {
          cells.append((slot!, stored))
        }
      case .path:
        break
      case .fileName:
        guard let text = list.first?.text else { break }
        if let path, path.name.isIdentical(to: text) {
          flags.insert(.fileNameIsName)
        } else {
          fileName = text
        }
      case .contentType:
        typeIdentifier = list.first?.text
      case .contentTypeTree:
        typeTree = list.compactMap(\.text)
      case .textContent:
        textContent = list.first?.text
      case .values:
        for (ordinal, value) in list.enumerated() {
          if let stored = value.storedValue { values.append((key, ordinal, stored)) }
        }
      }
    }
    documents = SearchDocuments(resolved, cache: cache)
    if documents.words != nil && documents.wordsAreASCII { flags.insert(.wordsAreASCII) }
  }
}
