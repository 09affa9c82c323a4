import LumenExtract
import LumenModel

/// The content types and extraction rules every command that reads files needs, loaded once
/// from the shipped rules/ and the user's `$XDG_CONFIG_HOME/lumen/rules`.
struct LoadedRules {
  let contentTypes: ContentTypeRegistry
  let extraction: RuleSet
  let directories: [RulesDirectory]

  static func load() throws -> LoadedRules {
    let directories = RulesDirectory.searchPath()
    do {
      let contentTypes = try ContentTypeRules.registry(in: directories)
      let extraction = try RuleSet.load(
        shippedDirectory: directories.first(where: { !$0.isUser })?.path,
        userDirectory: RulesDirectory.userDirectory().path)
      return LoadedRules(
        contentTypes: contentTypes, extraction: extraction, directories: directories)
    } catch let error as ContentTypeRulesError {
      printError(error.description)
      throw CommandFailure()
    } catch let error as RuleError {
      printError(error.description)
      throw CommandFailure()
    }
  }
}

/// Ends a command with exit status 1 after its message has been printed.
struct CommandFailure: Error {}
