import ArgumentParser
import Foundation
import LumenCrawl
import LumenStore

/// `lumen forget`: take folders out of the index. A crawled root goes in one domain delete;
/// a folder inside a root goes by path (it comes back if the root is crawled again without an
/// exclude for it).
struct ForgetCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "forget",
    abstract: "Remove folders and their contents from the index.")

  @OptionGroup var index: IndexOptions

  @Argument(help: "Roots or folders to forget.")
  var paths: [String]

  func run() async throws {
    let location = try index.location()
    guard FileManager.default.fileExists(atPath: location.path) else {
      printError("no index at \(location.path)")
      throw ExitCode.failure
    }
    let searchable = try SearchableIndex(location: location)
    let domains = Set(try await searchable.statistics().itemsByDomain.keys)
    var missing = false
    for raw in paths {
      let path = URL(fileURLWithPath: raw).standardizedFileURL.path
      let domain = FileDomain.identifier(forRoot: path)
      if domains.contains(domain) {
        try await searchable.deleteSearchableItems(withDomainIdentifiers: [domain])
        print("forgot root \(path)")
      } else if try await searchable.item(withIdentifier: path) != nil {
        try await searchable.deleteFiles(underPath: path)
        print("forgot \(path)")
      } else {
        printError("\(path): not in the index")
        missing = true
      }
    }
    if missing { throw ExitCode.failure }
  }
}
