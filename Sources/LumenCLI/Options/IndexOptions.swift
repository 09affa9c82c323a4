import ArgumentParser
import Foundation
import LumenStore

/// `--db PATH` and `--index NAME`, shared by every command that touches an index.
struct IndexOptions: ParsableArguments {
  @Option(
    name: .customLong("db"),
    help: ArgumentHelp("The index database file (default: $LUMEN_DB, else the named index).",
                       valueName: "path"))
  var databasePath: String?

  @Option(
    name: .customLong("index"),
    help: ArgumentHelp("A named index in the data folder ($XDG_DATA_HOME/lumen).",
                       valueName: "name"))
  var indexName: String?

  func location() throws -> IndexLocation {
    try IndexLocation.resolve(
      databasePath: databasePath, indexName: indexName,
      environment: ProcessInfo.processInfo.environment)
  }
}
