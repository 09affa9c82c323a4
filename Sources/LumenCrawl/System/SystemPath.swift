import LumenModel

/// A path as the kernel wants it: the bytes `FaithfulPath` stands for, NUL-terminated, made once
/// per folder so that no system call re-encodes a Swift string. Names that are not UTF-8 keep
/// their exact bytes.
struct SystemPath: Sendable, Hashable {
  /// NUL-terminated.
  let bytes: [CChar]

  init(_ path: String) {
    var bytes = FaithfulPath.encode(path).map { CChar(bitPattern: $0) }
    bytes.append(0)
    self.bytes = bytes
  }

  /// The path of `name` (raw bytes, no NUL) inside this folder.
  func appending(_ name: [UInt8]) -> SystemPath {
    var bytes = self.bytes
    bytes.removeLast()
    if bytes.last != 0x2F { bytes.append(0x2F) }
    bytes.append(contentsOf: name.lazy.map { CChar(bitPattern: $0) })
    bytes.append(0)
    return SystemPath(terminated: bytes)
  }

  private init(terminated: [CChar]) { self.bytes = terminated }

  func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
    try bytes.withUnsafeBufferPointer { try body($0.baseAddress!) }
  }
}
