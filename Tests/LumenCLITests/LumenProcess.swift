import Foundation
import LumenTestSupport

/// Runs the real `lumen` binary built next to the test bundle, as a person would from a shell.
struct LumenProcess {
  struct Result {
    let status: Int32
    let stdout: Data
    let stderr: String
    /// Ended by a signal (a crash) rather than by exiting.
    var signaled = false
    var output: String { String(decoding: stdout, as: UTF8.self) }
    var lines: [String] { output.split(separator: "\n").map(String.init) }
  }

  /// The package root, found from this file's path.
  static let packageRoot: URL = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
      url.deleteLastPathComponent()
      if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
        return url
      }
    }
    fatalError("Package.swift not found above \(#filePath)")
  }()

  /// `lumen` in the build products folder that holds this test bundle.
  static let executable: URL = {
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var folder = bundle.deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = folder.appendingPathComponent("lumen")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      folder.deleteLastPathComponent()
    }
    return packageRoot.appendingPathComponent(".build/debug/lumen")
  }()

  /// A scratch folder with its own data and config homes, removed by `cleanUp()`.
  let home: URL

  init() throws {
    home = FileManager.default.temporaryDirectory
      .appendingPathComponent("lumen-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
  }

  func cleanUp() { try? FileManager.default.removeItem(at: home) }

  var database: String { home.appendingPathComponent("index.sqlite").path }

  /// This process's environment with the scratch folder's data and config homes.
  func environment(_ extra: [String: String] = [:]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
    environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
    environment["LUMEN_DB"] = nil
    environment["TZ"] = "UTC"
    for (key, value) in extra { environment[key] = value }
    return environment
  }

  /// Runs `lumen` to completion; the wait happens off the cooperative pool (see `OffThePool`).
  @discardableResult
  func run(_ arguments: [String], stdin: Data? = nil, environment extra: [String: String] = [:])
    async throws -> Result
  {
    let environment = environment(extra)
    return try await OffThePool.run {
      try Self.runBlocking(arguments, stdin: stdin, environment: environment)
    }
  }

  private static func runBlocking(
    _ arguments: [String], stdin: Data?, environment: [String: String]
  ) throws -> Result {
    let process = Process()
    process.executableURL = Self.executable
    process.arguments = arguments
    process.environment = environment
    let out = Pipe()
    let err = Pipe()
    let input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(stdin) }
    try input.fileHandleForWriting.close()
    // Read both pipes to the end before waiting, so a chatty child cannot block on a full pipe.
    let errors = ErrorCollector(err.fileHandleForReading)
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = errors.finish()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, stdout: stdout,
      stderr: String(decoding: stderr, as: UTF8.self),
      signaled: process.terminationReason == .uncaughtSignal)
  }
}

/// Drains a pipe on its own thread.
private final class ErrorCollector: @unchecked Sendable {
  private var data = Data()
  private let done = DispatchSemaphore(value: 0)

  init(_ handle: FileHandle) {
    Thread.detachNewThread { [self] in
      data = handle.readDataToEndOfFile()
      done.signal()
    }
  }

  func finish() -> Data {
    done.wait()
    return data
  }
}
