import ArgumentParser
import Foundation
import LumenStore

/// `--db PATH` and `--index NAME`, shared by every command that touches an index.
struct IndexOptions: ParsableArguments {
  @Option(
    name: .customLong("db"),
    help: ArgumentHelp(
      "The index database file (default: $LUMEN_DB, else the named index).",
      valueName: "path"))
  var databasePath: String?

  @Option(
    name: .customLong("index"),
    help: ArgumentHelp(
      "A named index in the data folder ($XDG_DATA_HOME/lumen).",
      valueName: "name"))
  var indexName: String?

  func validate() throws {
    if databasePath != nil && indexName != nil {
      throw ValidationError("--db and --index name the same thing; give one of them")
    }
  }

  /// An explicit flag beats the environment: `--db`, then `--index`, then `LUMEN_DB`, then the
  /// default index.
  func location() throws -> IndexLocation {
    let environment = ProcessInfo.processInfo.environment
    if let indexName, databasePath == nil {
      return try IndexLocation.named(indexName, environment: environment)
    }
    return try IndexLocation.resolve(
      databasePath: databasePath, indexName: nil, environment: environment)
  }

  /// The index opened for reading by a command that runs a few queries and exits (`find`,
  /// `show`, `status`). Without SQLite's memory map: a process that maps the file pays a page
  /// fault for every page it touches the first time, and every touched page counts as its
  /// resident memory, while reads through SQLite's own cache copy only the pages a query needs
  /// from the OS page cache. Measured on bench/query's 1,000,000-item index, `lumen find
  /// --count`, median of 5: `*port*` 0.11 → 0.08 s and 480 → 53 MB, the `&&`/`||` mix 0.15 →
  /// 0.13 s and 496 → 58 MB, `* == 'budget*'cd` 0.11 → 0.09 s and 509 → 53 MB. A program that
  /// queries one index all day keeps the map (`SearchableIndex.Options.memoryMapBytes`).
  static var reading: SearchableIndex.Options { .init(readOnly: true, memoryMapBytes: 0) }
}
