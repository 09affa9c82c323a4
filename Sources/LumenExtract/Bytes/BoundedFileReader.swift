import Glibc
import LumenModel

/// Random access to one file that never reads past the rule's `MaxBytes`: every read is
/// checked against `limit`, so a header that points beyond it reads as missing instead of
/// pulling in gigabytes. The first bytes are read once up front because every image format
/// keeps its headers there; later reads go through `pread`.
///
/// Owns the file descriptor (closed in `deinit`); not shared between threads.
final class BoundedFileReader {
  /// The file's size on disk.
  let fileSize: Int
  /// How far reads may go: the file size or `MaxBytes`, whichever is smaller.
  let limit: Int
  /// The first `head.count` bytes of the file.
  let head: [UInt8]
  private let descriptor: Int32

  static let headSize = 64 << 10

  init(path: [UInt8], maxBytes: Int) throws(ExtractionError) {
    // O_NONBLOCK keeps a FIFO from hanging the open; regular files ignore it.
    let fd = (path + [0]).withUnsafeBufferPointer { buffer in
      buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
        open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
      }
    }
    guard fd >= 0 else {
      throw ExtractionError(.unreadable, "cannot open: \(String(cString: strerror(errno)))")
    }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      close(fd)
      throw ExtractionError(.unsupported, "not a regular file")
    }
    descriptor = fd
    fileSize = Int(info.st_size)
    limit = max(0, min(fileSize, maxBytes))
    head = Self.read(fd, at: 0, count: min(limit, Self.headSize))
  }

  deinit { close(descriptor) }

  /// `count` bytes at `offset`, or nil when any of them lies outside the file or the limit.
  func bytes(at offset: Int, count: Int) -> [UInt8]? {
    guard offset >= 0, count >= 0, offset <= limit, count <= limit - offset else { return nil }
    if offset + count <= head.count { return Array(head[offset..<offset + count]) }
    let data = Self.read(descriptor, at: offset, count: count)
    return data.count == count ? data : nil
  }

  /// Whether `offset..<offset+count` lies inside what may be read.
  func contains(offset: Int, count: Int) -> Bool {
    offset >= 0 && count >= 0 && offset <= limit && count <= limit - offset
  }

  private static func read(_ fd: Int32, at offset: Int, count: Int) -> [UInt8] {
    guard count > 0 else { return [] }
    var result = [UInt8](repeating: 0, count: count)
    var done = 0
    result.withUnsafeMutableBytes { buffer in
      while done < count {
        let n = pread(fd, buffer.baseAddress! + done, count - done, off_t(offset + done))
        if n > 0 {
          done += n
        } else if n < 0 && errno == EINTR {
          continue
        } else {
          break
        }
      }
    }
    if done < count { result.removeLast(count - done) }
    return result
  }
}
