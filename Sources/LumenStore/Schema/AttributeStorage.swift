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
  /// Registry row, storage and `item` column slot of every built-in attribute, by name: what
  /// laying out a row asks for each attribute of each item, worked out once.
  let builtInPlans: [String: BuiltInPlan]

  struct BuiltInPlan: Sendable {
    let key: AttributeKey
    let storage: AttributeStorage
    let slot: Int?
  }

  init(itemColumns names: [String]) {
    var columns: [String: String] = [:]
    let present = Set(names)
    for key in AttributeKey.builtIns where !key.isMultiValued && present.contains(key.name) {
      columns[key.name] = key.name
    }
    self.columns = columns
    let itemColumns = ItemColumns(names: names)
    self.itemColumns = itemColumns
    var plans: [String: BuiltInPlan] = [:]
    for key in AttributeKey.builtIns {
      let storage = Self.storage(for: key, columns: columns)
      var slot: Int? = nil
      if case .column(let column) = storage { slot = itemColumns.slots[column] }
      plans[key.name] = BuiltInPlan(key: key, storage: storage, slot: slot)
    }
    self.builtInPlans = plans
  }

  static func read(_ db: Database) throws -> StorageLayout {
    StorageLayout(itemColumns: try db.columns(in: "item").map(\.name))
  }

  func storage(for key: AttributeKey) -> AttributeStorage {
    Self.storage(for: key, columns: columns)
  }

  private static func storage(for key: AttributeKey, columns: [String: String])
    -> AttributeStorage
  {
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

/// The columns of `item`, numbered in schema order. The first sixteen are frozen by the v1
/// migration (`StoreMigrations.v1Item`), so their slots are constants.
struct ItemColumns: Sendable {
  let names: [String]
  let slots: [String: Int]

  static let id = 0
  static let uid = 1
  static let domainID = 2
  static let expires = 3
  static let dirID = 4
  static let name = 5
  static let fileName = 6
  static let flags = 7
  static let typeID = 8
  static let device = 9
  static let inode = 10
  static let size = 11
  static let modification = 12
  static let change = 13
  static let extractorID = 14
  static let fixed = [
    "id", "uid", "domain_id", "expires", "dir_id", "name", "file_name", "flags", "type_id",
    "st_dev", "st_ino", "st_size", "st_mtime_ns", "st_ctime_ns", "extractor_id",
  ]

  init(names: [String]) {
    precondition(Array(names.prefix(Self.fixed.count)) == Self.fixed, "unexpected item schema")
    self.names = names
    var slots: [String: Int] = [:]
    for (slot, name) in names.enumerated() { slots[name] = slot }
    self.slots = slots
  }
}
