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
  let columns: [String: String]

  init(itemColumns: Set<String>) {
    var columns: [String: String] = [:]
    for key in AttributeKey.builtIns where !key.isMultiValued && itemColumns.contains(key.name) {
      columns[key.name] = key.name
    }
    self.columns = columns
  }

  static func read(_ db: Database) throws -> StorageLayout {
    let names = try db.columns(in: "item").map(\.name)
    return StorageLayout(itemColumns: Set(names))
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
