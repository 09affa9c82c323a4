import Foundation
import Glibc

/// Says whether a bulk load of an index is under way in a live process: the loader holds an
/// exclusive `flock` on `<index>.bulk-load.lock` from before it drops the indexes until after
/// it has created them again. The kernel drops the lock when the process ends however it ends,
/// so a writer that opens the index, finds indexes recorded as deferred and can take the lock
/// knows their loader died and creates them itself; one that cannot take it leaves them to the
/// loader, which is still writing.
final class BulkLoadLock: Sendable {
  let path: String
  private let descriptor: Int32

  /// Takes the lock of the index at `databasePath`, or nil when another open file holds it
  /// (another process, or another `SearchableIndex` of this one).
  static func take(databasePath: String) throws -> BulkLoadLock? {
    let path = databasePath + ".bulk-load.lock"
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw SearchableIndexError.cannotOpen(
        path: databasePath, reason: "cannot open \(path): \(String(cString: strerror(errno)))")
    }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      let error = errno
      close(descriptor)
      if error == EWOULDBLOCK { return nil }
      throw SearchableIndexError.cannotOpen(
        path: databasePath, reason: "cannot lock \(path): \(String(cString: strerror(error)))")
    }
    return BulkLoadLock(path: path, descriptor: descriptor)
  }

  private init(path: String, descriptor: Int32) {
    self.path = path
    self.descriptor = descriptor
  }

  deinit { close(descriptor) }
}
