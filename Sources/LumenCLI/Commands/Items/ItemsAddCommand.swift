import ArgumentParser
import Foundation
import LumenModel
import LumenStore

/// `lumen items add`: every line of one call forms one batch, ended with the client state, so a
/// program that crashes mid-way can ask `lumen items state` what made it in.
struct ItemsAddCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "add",
    abstract: "Index items from JSON Lines.",
    discussion: """
      Each line: {"id": …, "domain": …, "expirationDate": …, "isUpdate": …, "attributes": {…}}
      with attributes named by Core Spotlight or kMDItem name. Unknown names become custom
      attributes typed by their JSON values. All lines form one batch; a malformed line stops
      the command before anything is written.
      """)

  @OptionGroup var index: IndexOptions

  @Option(
    name: .customLong("client-state"),
    help: ArgumentHelp(
      "Store this text as the batch's client state (at most 250 bytes).", valueName: "text"))
  var clientState: String?

  @Argument(help: ArgumentHelp("A JSON Lines file, or - for standard input.", valueName: "file"))
  var file: String

  func validate() throws {
    if let clientState, clientState.utf8.count > 250 {
      throw ValidationError("--client-state is \(clientState.utf8.count) bytes; at most 250")
    }
  }

  func run() async throws {
    let data: Data
    do {
      data =
        file == "-"
        ? FileHandle.standardInput.readDataToEndOfFile()
        : try Data(contentsOf: URL(fileURLWithPath: file))
    } catch {
      printError("\(file): cannot read: \(error.localizedDescription)")
      throw ExitCode.failure
    }
    let searchable = try SearchableIndex(location: try index.location())
    var decoder = ItemLineDecoder(registry: searchable.registry)
    var items: [SearchableItem] = []
    var lineNumber = 0
    for line in String(decoding: data, as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false)
    {
      lineNumber += 1
      if line.allSatisfy(\.isWhitespace) { continue }
      do {
        items.append(try decoder.decode(line, line: lineNumber))
      } catch {
        printError("\(file == "-" ? "<stdin>" : file): \(error.description)")
        throw ExitCode.failure
      }
    }
    let custom = decoder.registry.keys.filter(\.isCustom)
      .filter { searchable.registry.key(named: $0.name) == nil }
    if !custom.isEmpty { try await searchable.declareCustomKeys(custom) }
    try searchable.beginBatch()
    try await searchable.indexSearchableItems(items)
    try await searchable.endBatch(clientState: Data((clientState ?? "").utf8))
  }
}
