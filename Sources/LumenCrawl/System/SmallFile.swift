import Glibc
import LumenExtract

/// Reads a small regular file whole (an ignore file, a config), refusing symbolic links, FIFOs
/// and devices, and reading at most `limit` bytes: a hostile 10 GB `.gitignore` costs nothing.
enum SmallFile {
  static let defaultLimit = 4 << 20

  /// `name` relative to an open folder (`openat`), or absolute with `AT_FDCWD`.
  static func read(
    in directory: Int32, name: UnsafePointer<CChar>, limit: Int = defaultLimit
  ) -> [UInt8]? {
    let descriptor = openat(
      directory, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, FileKind.isRegular(mode: status.st_mode) else {
      return nil
    }
    let capacity = min(limit, max(0, Int(status.st_size)))
    var bytes = [UInt8](repeating: 0, count: capacity)
    var total = 0
    while total < capacity {
      let count = bytes.withUnsafeMutableBytes {
        Glibc.read(descriptor, $0.baseAddress! + total, capacity - total)
      }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      total += count
    }
    return Array(bytes[..<total])
  }

  static func read(path: String, limit: Int = defaultLimit) -> [UInt8]? {
    SystemPath(path).withCString { read(in: AT_FDCWD, name: $0, limit: limit) }
  }
}

extension FileKind {
  static func isRegular(mode: mode_t) -> Bool { UInt32(mode) & UInt32(S_IFMT) == UInt32(S_IFREG) }
}
