import ArgumentParser
import LumenStore

/// `lumen items delete`: by identifier, by domain (hierarchical), or everything.
struct ItemsDeleteCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "delete",
    abstract: "Delete items by identifier, by domain, or all of them.",
    discussion: "Deleting domain 'mail' also deletes 'mail.inbox'.")

  @OptionGroup var index: IndexOptions

  @Option(
    name: .customLong("id"), parsing: .upToNextOption,
    help: ArgumentHelp(
      "Item identifiers.", valueName: "id"))
  var identifiers: [String] = []

  @Option(
    name: .customLong("domain"), parsing: .upToNextOption,
    help: ArgumentHelp(
      "Domain identifiers.", valueName: "domain"))
  var domains: [String] = []

  @Flag(help: "Delete every item.")
  var all = false

  func validate() throws {
    let modes = [!identifiers.isEmpty, !domains.isEmpty, all].filter { $0 }.count
    guard modes == 1 else { throw ValidationError("give exactly one of --id, --domain or --all") }
  }

  func run() async throws {
    let searchable = try SearchableIndex(location: try index.location())
    if all {
      try await searchable.deleteAllSearchableItems()
    } else if !identifiers.isEmpty {
      try await searchable.deleteSearchableItems(withIdentifiers: identifiers)
    } else {
      try await searchable.deleteSearchableItems(withDomainIdentifiers: domains)
    }
  }
}
