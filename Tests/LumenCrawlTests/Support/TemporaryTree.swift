import Foundation
import Glibc
import LumenModel

/// A throwaway folder tree for one test (fd's `TestEnv`), removed when the test is done, even
/// if it made folders unreadable.
final class TemporaryTree {
  let root: String

  init(_ label: String = "tree") {
    var template = Array("/tmp/lumen-\(label)-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    precondition(made != nil, "mkdtemp failed: \(String(cString: strerror(errno)))")
    root = String(cString: made!)
  }

  deinit {
    _ = try? Self.run("/bin/chmod", ["-R", "u+rwx", root])
    try? FileManager.default.removeItem(atPath: root)
  }

  func path(_ relative: String) -> String { relative.isEmpty ? root : root + "/" + relative }

  @discardableResult
  func file(_ relative: String, _ contents: String = "") -> String {
    write(relative, Array(contents.utf8))
  }

  @discardableResult
  func write(_ relative: String, _ bytes: [UInt8]) -> String {
    let full = path(relative)
    folder((relative as NSString).deletingLastPathComponent)
    precondition(FileManager.default.createFile(atPath: full, contents: Data(bytes)))
    return full
  }

  /// A file whose name is raw bytes (not necessarily UTF-8), in folder `relative`.
  @discardableResult
  func file(in relative: String, rawName: [UInt8], _ contents: String = "") -> String {
    folder(relative)
    var bytes = Array(path(relative).utf8) + [0x2F] + rawName
    bytes.append(0)
    let descriptor = bytes.withUnsafeBufferPointer {
      $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
    }
    precondition(descriptor >= 0, "cannot create raw-named file")
    _ = contents.utf8CString.withUnsafeBufferPointer {
      Glibc.write(descriptor, $0.baseAddress!, $0.count - 1)
    }
    close(descriptor)
    return FaithfulPath.decode(Array(path(relative).utf8) + [0x2F] + rawName)
  }

  @discardableResult
  func folder(_ relative: String) -> String {
    let full = path(relative)
    try! FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
    return full
  }

  @discardableResult
  func symlink(_ relative: String, to target: String) -> String {
    let full = path(relative)
    folder((relative as NSString).deletingLastPathComponent)
    precondition(Glibc.symlink(target, full) == 0, "symlink failed")
    return full
  }

  @discardableResult
  func fifo(_ relative: String) -> String {
    let full = path(relative)
    folder((relative as NSString).deletingLastPathComponent)
    precondition(mkfifo(full, 0o644) == 0, "mkfifo failed")
    return full
  }

  func chmod(_ relative: String, _ mode: mode_t) {
    precondition(Glibc.chmod(path(relative), mode) == 0, "chmod failed")
  }

  func remove(_ relative: String) { try! FileManager.default.removeItem(atPath: path(relative)) }

  func move(_ from: String, _ to: String) {
    folder((to as NSString).deletingLastPathComponent)
    precondition(rename(path(from), path(to)) == 0, "rename failed")
  }

  /// Runs git in `relative` with no system or user configuration.
  @discardableResult
  func git(_ arguments: [String], in relative: String = "", input: String? = nil) throws -> String {
    try Self.run(
      "/usr/bin/git", arguments, directory: path(relative), input: input,
      environment: [
        "HOME": root, "XDG_CONFIG_HOME": root + "/.no-config", "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": "/dev/null", "PATH": "/usr/bin:/bin", "LANG": "C",
      ])
  }

  struct CommandFailure: Error, CustomStringConvertible {
    let command: String
    let status: Int32
    let output: String
    var description: String { "\(command) exited \(status): \(output)" }
  }

  /// Runs a program, returning its standard output; throws on a non-zero exit.
  @discardableResult
  static func run(
    _ executable: String, _ arguments: [String], directory: String? = nil, input: String? = nil,
    environment: [String: String]? = nil, allowFailure: Bool = false
  ) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    if let environment { process.environment = environment }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    let inputPipe = Pipe()
    process.standardInput = inputPipe
    try process.run()
    if let input { inputPipe.fileHandleForWriting.write(Data(input.utf8)) }
    try inputPipe.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    if process.terminationStatus != 0 && !allowFailure {
      throw CommandFailure(
        command: ([executable] + arguments).joined(separator: " "),
        status: process.terminationStatus, output: text + String(decoding: errorData, as: UTF8.self)
      )
    }
    return text
  }
}
