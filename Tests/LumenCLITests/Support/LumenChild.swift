import Foundation
import Glibc

/// A `lumen` run in the background, to be killed: its output goes to files (a pipe nobody
/// reads could stall it and change when it dies).
final class LumenChild {
  let process = Process()
  let output: URL

  init(_ lumen: LumenProcess, _ arguments: [String], environment extra: [String: String] = [:])
    throws
  {
    output = lumen.home.appendingPathComponent("child-\(UUID().uuidString).out")
    FileManager.default.createFile(atPath: output.path, contents: nil)
    process.executableURL = LumenProcess.executable
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_DATA_HOME"] = lumen.home.appendingPathComponent("data").path
    environment["XDG_CONFIG_HOME"] = lumen.home.appendingPathComponent("config").path
    environment["LUMEN_DB"] = nil
    for (key, value) in extra { environment[key] = value }
    process.environment = environment
    let handle = try FileHandle(forWritingTo: output)
    process.standardOutput = handle
    process.standardError = handle
    process.standardInput = FileHandle.nullDevice
    try process.run()
  }

  /// SIGKILL, as a power cut looks to the process; waits for it to be gone.
  func killHard() {
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  var text: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }
}
