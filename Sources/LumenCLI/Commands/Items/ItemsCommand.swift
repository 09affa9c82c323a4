import ArgumentParser

/// `lumen items`: a program's own items, through the same Core-Spotlight-shaped API as files.
struct ItemsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "items",
    abstract: "Add and delete items programs index themselves.",
    subcommands: [ItemsAddCommand.self, ItemsDeleteCommand.self, ItemsStateCommand.self])
}
