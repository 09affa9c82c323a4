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
}
