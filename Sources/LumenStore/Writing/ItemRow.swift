import GRDB

/// The columns and values of one `item` row, naming only the columns that have a value: a file
/// item sets about fifteen of the hundred columns. The set of columns is a bit mask, so items
/// with the same attributes share one prepared statement.
struct ItemRow {
  let columns: ItemColumns
  private(set) var mask = ColumnMask()
  private var cells: [(slot: Int, value: DatabaseValue)] = []

  init(columns: ItemColumns) {
    self.columns = columns
    cells.reserveCapacity(24)
  }

  var count: Int { cells.count }

  mutating func set(_ slot: Int, _ value: DatabaseValue?) {
    guard let value, !value.isNull else { return }
    if mask.contains(slot) {
      cells.removeAll { $0.slot == slot }
    }
    mask.insert(slot)
    // Kept in column order (a few dozen cells at most), so that binding needs no sort.
    var position = cells.endIndex
    while position > 0 && cells[position - 1].slot > slot { position -= 1 }
    cells.insert((slot, value), at: position)
  }

  /// The values in column order, matching `insertSQL`.
  func appendValues(to arguments: inout [DatabaseValue]) {
    for cell in cells { arguments.append(cell.value) }
  }

  /// `OR ROLLBACK`: see `ItemWriter.insert(_:)`.
  func insertSQL(rows: Int) -> String {
    let names = cells.map { "\"\(columns.names[$0.slot])\"" }
    let tuple = "(" + String(repeating: "?,", count: names.count).dropLast() + ")"
    return "INSERT OR ROLLBACK INTO item(\(names.joined(separator: ","))) VALUES "
      + Array(repeating: tuple, count: rows).joined(separator: ",")
  }
}

/// A set of `item` column slots.
struct ColumnMask: Hashable {
  private var words: (UInt64, UInt64, UInt64) = (0, 0, 0)

  func contains(_ slot: Int) -> Bool {
    let bit = UInt64(1) << UInt64(slot & 63)
    switch slot >> 6 {
    case 0: return words.0 & bit != 0
    case 1: return words.1 & bit != 0
    default: return words.2 & bit != 0
    }
  }

  mutating func insert(_ slot: Int) {
    let bit = UInt64(1) << UInt64(slot & 63)
    switch slot >> 6 {
    case 0: words.0 |= bit
    case 1: words.1 |= bit
    default: words.2 |= bit
    }
  }

  static func == (lhs: ColumnMask, rhs: ColumnMask) -> Bool { lhs.words == rhs.words }

  func hash(into hasher: inout Hasher) {
    hasher.combine(words.0)
    hasher.combine(words.1)
    hasher.combine(words.2)
  }
}
