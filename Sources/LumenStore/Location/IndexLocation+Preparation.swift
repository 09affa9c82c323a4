import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension IndexLocation {
  /// Whether the database file exists (a read-only open requires it).
  public var exists: Bool {
    var info = stat()
    return stat(path, &info) == 0
  }

  /// Creates the missing folders (0700) and an empty database file (0600) before SQLite opens it,
  /// so the index is private from its first byte: metadata of a home folder (names, authors,
  /// places) is as personal as the files. SQLite gives its `-wal` and `-shm` files the mode of
  /// the database file. Existing folders and files are left as they are: `--db /tmp/x.sqlite`
  /// must not chmod `/tmp`. Permissions are set with `chmod` after creation rather than through
  /// `umask`, which is process-wide and would race with other threads.
  func prepareForWriting() throws(IndexLocationError) {
    try createFolders(folder)
    let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    if descriptor >= 0 {
      defer { close(descriptor) }
      guard fchmod(descriptor, 0o600) == 0 else {
        throw .cannotSecureFile(path: path, reason: String(cString: strerror(errno)))
      }
    } else if errno != EEXIST {
      throw .cannotSecureFile(path: path, reason: String(cString: strerror(errno)))
    }
  }

  private func createFolders(_ folder: String) throws(IndexLocationError) {
    var info = stat()
    if stat(folder, &info) == 0 { return }
    let parent = IndexLocation(path: folder).folder
    if parent != folder { try createFolders(parent) }
    if mkdir(folder, 0o700) != 0 {
      guard errno == EEXIST else {
        throw .cannotCreateFolder(path: folder, reason: String(cString: strerror(errno)))
      }
      return
    }
    guard chmod(folder, 0o700) == 0 else {
      throw .cannotCreateFolder(path: folder, reason: String(cString: strerror(errno)))
    }
  }
}
