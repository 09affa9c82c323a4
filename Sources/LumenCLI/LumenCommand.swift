import ArgumentParser

/// `lumen`: the command line. Parsing and printing only; the work is done by the library targets.
@main
struct LumenCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lumen",
    abstract: "Index your files' metadata and search it with the Spotlight query language.",
    version: "0.1.0",
    subcommands: [
      IndexCommand.self, FindCommand.self, ShowCommand.self, ItemsCommand.self, StatusCommand.self, ForgetCommand.self, ResetCommand.self,
      RulesCommand.self, ExtractCommand.self,
    ]
  )
}
