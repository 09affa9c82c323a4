import ArgumentParser
import Foundation
import LumenStore

/// `lumen items state`: the client state of the last committed batch.
struct ItemsStateCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "state",
    abstract: "Print the client state of the last committed batch.",
    discussion: "Prints nothing (and exits 0) when no batch has stored a state.")

  @OptionGroup var index: IndexOptions

  func run() async throws {
    let location = try index.location()
    guard FileManager.default.fileExists(atPath: location.path) else { return }
    let searchable = try SearchableIndex(location: location, options: IndexOptions.reading)
    if let state = try await searchable.fetchLastClientState() {
      FileHandle.standardOutput.write(state)
      if state.last != 10 { FileHandle.standardOutput.write(Data([10])) }
    }
  }
}
