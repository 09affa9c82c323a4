import GRDB
import GRDBSQLite

/// Binds a prepared statement's parameters straight through SQLite's C API. A chunk of 500 items
/// binds some 10,000 values; going through `StatementArguments` turned each into an existential
/// and an array element twice over, which the profile of the write path showed as a sixth of
/// the Swift time spent in `insert`.
extension Statement {
  /// Binds `values` to parameters 1…n (n = `values.count`, which must equal the statement's
  /// parameter count) and leaves the statement ready for `execute()`.
  func bindDirectly(_ values: some Collection<DatabaseValue>) {
    // Resets the statement, clears its bindings and marks the (empty) GRDB arguments as
    // bound, so that `execute()` runs with the values bound below.
    setUncheckedArguments(StatementArguments())
    let handle = sqliteStatement
    var index: CInt = 1
    for value in values {
      switch value.storage {
      case .null: sqlite3_bind_null(handle, index)
      case .int64(let number): sqlite3_bind_int64(handle, index, number)
      case .double(let number): sqlite3_bind_double(handle, index, number)
      case .string(let text):
        var text = text
        text.withUTF8 { bytes in
          bytes.withMemoryRebound(to: CChar.self) { chars in
            // Up to the first NUL, as GRDB binds every other string (a query's values
            // included: it passes them as C strings). Stored whole, "abc\0def" would never
            // equal the "abc" a query for it compares with.
            let length = chars.firstIndex(of: 0) ?? chars.count
            if let start = chars.baseAddress, length > 0 {
              _ = sqlite3_bind_text(handle, index, start, CInt(length), sqliteTransient)
            } else {
              // A NULL pointer would bind NULL: the empty text needs a real one.
              _ = sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
            }
          }
        }
      case .blob(let data):
        data.withUnsafeBytes { bytes in
          _ = sqlite3_bind_blob(
            handle, index, bytes.baseAddress, CInt(bytes.count), sqliteTransient)
        }
      }
      index += 1
    }
  }
}

/// `SQLITE_TRANSIENT`: SQLite copies the bytes before the bind call returns.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
