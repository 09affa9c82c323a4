import Glibc

/// An open folder read entry by entry as raw bytes (`readdir` over `getdents64`), so a name that
/// is not UTF-8 reaches the index byte for byte. Owns its `DIR*`; closed in `deinit`.
///
/// Opened with `O_NOFOLLOW`: a folder replaced by a symbolic link between listing and opening is
/// refused, never followed. Not `Sendable`: one thread reads it.
final class DirectoryStream {
  private let stream: OpaquePointer
  /// The folder's descriptor, for `statx` and `openat` relative to it.
  let descriptor: Int32

  init(path: SystemPath) throws(SystemCallError) {
    let descriptor = try retryingOnInterrupt("open") {
      path.withCString { open($0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
    }
    guard let stream = fdopendir(descriptor) else {
      let error = SystemCallError("fdopendir")
      close(descriptor)
      throw error
    }
    self.stream = stream
    self.descriptor = descriptor
  }

  deinit { closedir(stream) }

  /// Calls `body` with each entry's name (without NUL; `.` and `..` left out) and its `d_type`
  /// (`DT_UNKNOWN` when the file system does not say). The name buffer is valid only during the
  /// call.
  func forEachEntry(
    _ body: (_ name: UnsafeBufferPointer<CChar>, _ type: UInt8) -> Void
  ) throws(SystemCallError) {
    let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
    while true {
      errno = 0
      guard let entry = readdir(stream) else {
        if errno != 0 { throw SystemCallError("readdir") }
        return
      }
      let name = (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self)
      let length = strlen(name)
      if length == 1 && name[0] == 0x2E { continue }
      if length == 2 && name[0] == 0x2E && name[1] == 0x2E { continue }
      body(UnsafeBufferPointer(start: name, count: length), entry.pointee.d_type)
    }
  }
}
