import ArgumentParser
import Foundation
import LumenCrawl
import LumenStore

/// `lumen reset`: erase an index. Asks first, because a home directory's index can take a
/// while to rebuild; without a terminal to ask on, only `--yes` erases.
struct ResetCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "reset",
    abstract: "Erase an index.",
    discussion: "Removes the database file and its write-ahead log. Asks first unless --yes.")

  @OptionGroup var index: IndexOptions

  @Flag(help: "Do not ask.")
  var yes = false

  func run() async throws {
    let location = try index.location()
    if let watcher = WatcherLock.holder(databasePath: location.path) {
      let who = watcher.pid.map { "process \($0)" } ?? "another process"
      printError(
        "not erasing \(location.path): lumen watch (\(who)) is keeping it up to date; stop it first"
      )
      throw ExitCode.failure
    }
    let files = [
      location.path, location.path + "-wal", location.path + "-shm",
      LastCrawlRecord.path(forDatabase: location.path),
      // A first crawl's bulk-load lock (LumenStore's BulkLoadLock): an empty file it leaves.
      location.path + ".bulk-load.lock",
    ]
    guard files.contains(where: { FileManager.default.fileExists(atPath: $0) }) else {
      print("no index at \(location.path)")
      return
    }
    if !yes {
      guard isatty(STDIN_FILENO) == 1 else {
        printError("not erasing \(location.path) without --yes (no terminal to ask on)")
        throw ExitCode.failure
      }
      FileHandle.standardError.write(Data("Erase the index at \(location.path)? [y/N] ".utf8))
      let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
      guard answer == "y" || answer == "yes" else {
        printError("nothing erased")
        throw ExitCode.failure
      }
    }
    for file in files where FileManager.default.fileExists(atPath: file) {
      do {
        try FileManager.default.removeItem(atPath: file)
      } catch {
        printError("\(file): \(error.localizedDescription)")
        throw ExitCode.failure
      }
    }
    print("erased \(location.path)")
  }
}
