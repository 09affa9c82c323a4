import Glibc

/// Reads a file's first bytes, never more than a rule's `MaxBytes=`.
///
/// Extractors that need the bytes in memory (HTML, text) go through here so that a 10 GB log
/// file costs at most the budget; the caller learns whether the file was cut.
enum BoundedFile {
  struct Contents {
    let bytes: [UInt8]
    /// False when the file had more bytes than the budget allowed.
    let isComplete: Bool
  }

  static func read(_ request: ExtractionRequest) throws(ExtractionError) -> Contents {
    try read(pathBytes: request.fileSystemPath, maxBytes: request.limits.maxBytes)
  }

  static func read(pathBytes: [UInt8], maxBytes: Int) throws(ExtractionError) -> Contents {
    let descriptor = (pathBytes + [0]).withUnsafeBufferPointer { buffer in
      // O_NONBLOCK: opening a FIFO must not wait for a writer.
      buffer.withMemoryRebound(to: CChar.self) {
        open($0.baseAddress!, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
      }
    }
    guard descriptor >= 0 else {
      throw ExtractionError(.unreadable, "cannot open: \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      throw ExtractionError(.unsupported, "not a regular file")
    }
    let budget = max(0, maxBytes)
    // One byte past the budget tells a file of exactly `maxBytes` from a longer one, and one
    // past the size the file has now tells when it ended (or shows that it grew). Sized by the
    // file, not the budget: zeroing a megabyte for every small text file was most of the text
    // extractor's time.
    let expected = Int(clamping: max(0, status.st_size)) + 1
    var bytes = [UInt8](repeating: 0, count: min(budget + 1, max(expected, 4096)))
    var count = 0
    while count <= budget {
      if count == bytes.count {
        bytes += [UInt8](repeating: 0, count: min(bytes.count, budget + 1 - count))
      }
      let got = bytes.withUnsafeMutableBytes { raw in
        Glibc.read(descriptor, raw.baseAddress! + count, raw.count - count)
      }
      if got < 0 {
        if errno == EINTR { continue }
        throw ExtractionError(.unreadable, "read failed: \(String(cString: strerror(errno)))")
      }
      if got == 0 { break }
      count += got
    }
    let isComplete = count <= budget
    bytes.removeSubrange(min(count, budget)...)
    return Contents(bytes: bytes, isComplete: isComplete)
  }
}

extension BoundedFile {
  /// The size of a regular file in bytes, for extractors that let a library open the file
  /// itself: anything else (a FIFO would block the library's open forever) is refused.
  static func regularFileSize(pathBytes: [UInt8]) throws(ExtractionError) -> Int {
    var status = stat()
    let result = (pathBytes + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &status) }
    }
    guard result == 0 else {
      throw ExtractionError(.unreadable, "cannot stat: \(String(cString: strerror(errno)))")
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw ExtractionError(.unsupported, "not a regular file")
    }
    return Int(status.st_size)
  }

  /// Throws `tooLarge` when the file is over `maxBytes`, `unsupported` when it is not a
  /// regular file.
  static func checkSize(_ request: ExtractionRequest) throws(ExtractionError) {
    let size = try regularFileSize(pathBytes: request.fileSystemPath)
    guard size <= request.limits.maxBytes else {
      throw ExtractionError(
        .tooLarge, "\(size) bytes is over the rule's limit of \(request.limits.maxBytes)")
    }
  }
}
