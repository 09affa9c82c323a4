import Foundation

/// Buffered standard output that writes raw bytes, so a path whose name is not UTF-8 reaches
/// the pipe exactly as the file system spells it, and a million results do not cost a million
/// write calls.
final class OutputStream {
  private var buffer: [UInt8] = []
  private let descriptor: Int32

  init(descriptor: Int32 = STDOUT_FILENO) {
    self.descriptor = descriptor
    buffer.reserveCapacity(1 << 16)
  }

  deinit { flush() }

  func write(bytes: [UInt8]) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= 1 << 16 { flush() }
  }

  func write(_ text: String) { write(bytes: Array(text.utf8)) }

  func flush() {
    var offset = 0
    while offset < buffer.count {
      let written = buffer[offset...].withUnsafeBytes {
        Glibc.write(descriptor, $0.baseAddress, $0.count)
      }
      if written < 0 {
        if errno == EINTR { continue }
        break  // EPIPE: the reader went away (e.g. `| head`); nothing more to say.
      }
      offset += written
    }
    buffer.removeAll(keepingCapacity: true)
  }
}

/// Writes a diagnostic to standard error.
func printError(_ message: String) {
  FileHandle.standardError.write(Data(("lumen: " + message + "\n").utf8))
}
