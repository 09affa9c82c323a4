import ArgumentParser
import Foundation

/// `lumen`: the command line. Parsing and printing only; the work is done by the library targets.
@main
struct LumenCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lumen",
    abstract: "Index your files' metadata and search it with the Spotlight query language.",
    version: "0.1.0",
    subcommands: [
      IndexCommand.self, WatchCommand.self, FindCommand.self, ShowCommand.self, ItemsCommand.self,
      StatusCommand.self, ForgetCommand.self, ResetCommand.self, RulesCommand.self,
      ExtractCommand.self, ExtractWorkerCommand.self,
    ]
  )

  /// The extraction worker runs before any other thread of the process exists: Landlock
  /// confines the thread that asks and the threads it creates afterwards, so a worker must ask
  /// while it is alone. Everything else goes through the usual async command.
  static func main() async {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == ExtractWorkerCommand.configuration.commandName {
      do {
        let command = try ExtractWorkerCommand.parse(Array(arguments.dropFirst()))
        try command.run()
        Foundation.exit(0)
      } catch {
        ExtractWorkerCommand.exit(withError: error)
      }
    }
    await Self.main(nil)
  }
}
