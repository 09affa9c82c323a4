import Foundation
import Glibc

/// A `lumen` (or a wrapper running it) left running in the background: `lumen watch`,
/// `lumen find --live`. Its output goes to files, read whenever a test wants, so it never
/// blocks on a full pipe; `stop()` kills it if it is still running, so no test leaves a child
/// behind.
final class BackgroundLumen: @unchecked Sendable {
  let process = Process()
  private let output: URL
  private let errors: URL

  /// Runs `lumen arguments…`, or `wrapper… lumen arguments…` when `wrapper` is given.
  init(_ lumen: LumenProcess, _ arguments: [String], wrapper: [String] = []) throws {
    let id = UUID().uuidString
    output = lumen.home.appendingPathComponent("out-\(id)")
    errors = lumen.home.appendingPathComponent("err-\(id)")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
    if let first = wrapper.first {
      process.executableURL = URL(fileURLWithPath: first)
      process.arguments = Array(wrapper.dropFirst()) + [LumenProcess.executable.path] + arguments
    } else {
      process.executableURL = LumenProcess.executable
      process.arguments = arguments
    }
    process.environment = lumen.environment()
    process.standardOutput = try FileHandle(forWritingTo: output)
    process.standardError = try FileHandle(forWritingTo: errors)
    process.standardInput = FileHandle.nullDevice
    try process.run()
  }

  var pid: Int32 { process.processIdentifier }
  var stdout: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }
  var stderr: String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }
  var lines: [String] { stdout.split(separator: "\n").map(String.init) }

  func signal(_ number: Int32) { kill(pid, number) }

  /// The process state letter from /proc (R, S, T for stopped, Z…).
  var state: String? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    return stat[stat.index(close, offsetBy: 2)...].split(separator: " ").first.map(String.init)
  }

  /// Waits for the process to end; its exit status, or nil when it outlived `timeout`.
  func waitForExit(timeout: Duration = .seconds(30)) async throws -> Int32? {
    let deadline = ContinuousClock.now + timeout
    while process.isRunning {
      guard ContinuousClock.now < deadline else { return nil }
      try await Task.sleep(for: .milliseconds(20))
    }
    return process.terminationStatus
  }

  /// Kills it (SIGKILL) if it still runs.
  func stop() {
    if process.isRunning {
      kill(pid, SIGCONT)
      kill(pid, SIGKILL)
      process.waitUntilExit()
    }
  }

  deinit { stop() }
}
