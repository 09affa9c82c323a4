import GRDB
import LumenModel

/// Where one attribute's values are kept. The query compiler and the reader switch on this, so
/// the storage decisions of `StoreMigrations` are written down once.
enum AttributeStorage: Sendable, Equatable {
  /// A typed column of `item`.
  case column(String)
  /// `directory.path || '/' || item.name`.
  case path
  /// `item.name` when flag `fileNameIsName` is set, else `item.file_name`.
  case fileName
  /// `content_type.identifier` through `item.type_id`.
  case contentType
  /// `content_type_ancestor.ancestor` through `item.type_id` (multi-valued).
  case contentTypeTree
  /// `item_text.text_content`.
  case textContent
  /// Rows of `value` for the attribute (multi-valued and custom keys).
  case values
}

/// The storage of every attribute for the schema of one database, read when it is opened: an
/// index written by an older Lumen may lack a column a newer built-in has, in which case that
/// attribute lives in `value` until a migration adds the column.
struct StorageLayout: Sendable {
  /// Column by attribute name.
  let columns: [String: String]
  /// Every column of `item`, in schema order.
  let itemColumns: ItemColumns

  init(itemColumns names: [String]) {
    var columns: [String: String] = [:]
    let present = Set(names)
    for key in AttributeKey.builtIns where !key.isMultiValued && present.contains(key.name) {
      columns[key.name] = key.name
    }
    self.columns = columns
    self.itemColumns = ItemColumns(names: names)
  }

  static func read(_ db: Database) throws -> StorageLayout {
    StorageLayout(itemColumns: try db.columns(in: "item").map(\.name))
  }

  func storage(for key: AttributeKey) -> AttributeStorage {
    if !key.isCustom {
      switch key.name {
      case AttributeKey.path.name: return .path
      case AttributeKey.fileName.name: return .fileName
      case AttributeKey.contentType.name: return .contentType
      case AttributeKey.contentTypeTree.name: return .contentTypeTree
      case AttributeKey.textContent.name: return .textContent
      default:
        if let column = columns[key.name] { return .column(column) }
      }
    }
    return .values
  }
}

/// The columns of `item`, numbered.
struct ItemColumns: Sendable {
  let names: [String]
  let slots: [String: Int]

  init(names: [String]) {
    self.names = names
    var slots: [String: Int] = [:]
    for (slot, name) in names.enumerated() { slots[name] = slot }
    self.slots = slots
  }
}
