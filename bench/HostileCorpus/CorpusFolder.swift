import Foundation
import Glibc

/// Where the hostile corpus is written, with the file-system operations it needs (raw byte
/// names, FIFOs, device nodes, sparse files, modes) and a log of what was made.
final class CorpusFolder {
  let root: String
  private(set) var made: [(path: String, kind: String)] = []
  private(set) var skipped: [(path: String, reason: String)] = []

  init(root: String) throws {
    self.root = root
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
  }

  func path(_ relative: String) -> String { root + "/" + relative }

  private func ensureParent(_ relative: String) throws {
    let parent = (path(relative) as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
  }

  func write(_ relative: String, _ bytes: [UInt8], kind: String) throws {
    try ensureParent(relative)
    try Data(bytes).write(to: URL(fileURLWithPath: path(relative)))
    made.append((relative, kind))
  }

  /// Records a file written by other means (an archive library).
  func noteMade(_ relative: String, kind: String) { made.append((relative, kind)) }

  func write(_ relative: String, text: String, kind: String) throws {
    try write(relative, Array(text.utf8), kind: kind)
  }

  /// A file of `size` bytes that occupies (almost) no disk: `bytes` at the start, a hole after.
  func sparse(_ relative: String, size: Int64, head: [UInt8], kind: String) throws {
    try write(relative, head, kind: kind)
    guard truncate(path(relative), off_t(size)) == 0 else { throw failure("truncate", relative) }
  }

  /// A name made of raw bytes (not necessarily UTF-8) inside `folder`.
  func rawName(in folder: String, _ name: [UInt8], contents: String, kind: String) throws {
    try FileManager.default.createDirectory(
      atPath: path(folder), withIntermediateDirectories: true)
    let full = Array(path(folder).utf8) + [UInt8(ascii: "/")] + name + [0]
    let descriptor = full.withUnsafeBufferPointer {
      $0.withMemoryRebound(to: CChar.self) {
        open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
      }
    }
    guard descriptor >= 0 else { throw failure("open", folder) }
    _ = Array(contents.utf8).withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
    made.append((folder + "/" + String(decoding: name, as: UTF8.self), kind))
  }

  func fifo(_ relative: String) throws {
    try ensureParent(relative)
    guard mkfifo(path(relative), 0o644) == 0 else { throw failure("mkfifo", relative) }
    made.append((relative, "fifo, never to be opened"))
  }

  /// A character device with /dev/null's numbers (1, 3); needs CAP_MKNOD, else noted as skipped.
  func characterDevice(_ relative: String) throws {
    try ensureParent(relative)
    // glibc's makedev(1, 3): the major number in bits 8-19, the minor in bits 0-7.
    if mknod(path(relative), S_IFCHR | 0o644, dev_t(1 << 8 | 3)) == 0 {
      made.append((relative, "character device, never to be opened"))
    } else {
      skipped.append((relative, "mknod: \(String(cString: strerror(errno))) (needs root)"))
    }
  }

  func symlink(_ relative: String, to target: String, kind: String) throws {
    try ensureParent(relative)
    guard Glibc.symlink(target, path(relative)) == 0 else { throw failure("symlink", relative) }
    made.append((relative, kind))
  }

  func chmod(_ relative: String, _ mode: mode_t) throws {
    guard Glibc.chmod(path(relative), mode) == 0 else { throw failure("chmod", relative) }
  }

  private func failure(_ call: String, _ relative: String) -> CorpusError {
    CorpusError("\(call) \(path(relative)): \(String(cString: strerror(errno)))")
  }
}
