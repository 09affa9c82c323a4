import Foundation
import LumenTestSupport

/// Runs a system program (mount, setpriv, chmod) to completion.
enum Command {
  struct Failure: Error, CustomStringConvertible {
    let command: String
    let status: Int32
    let output: String
    var description: String { "\(command) exited \(status): \(output)" }
  }

  /// Standard output; throws with the output when the program fails.
  @discardableResult
  static func run(_ executable: String, _ arguments: [String]) async throws -> String {
    try await OffThePool.run { try runBlocking(executable, arguments) }
  }

  /// For `defer` blocks, which cannot await: blocks the calling thread.
  static func runBlocking(_ executable: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    guard process.terminationStatus == 0 else {
      throw Failure(
        command: ([executable] + arguments).joined(separator: " "),
        status: process.terminationStatus, output: text)
    }
    return text
  }
}
