import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension IndexLocation {
  /// Renames an unusable database, with its `-wal` and `-shm` files, to
  /// `<name>.corrupt-YYYYmmddTHHMMSS` beside it (local time; `-2`, `-3`… if taken), so that a
  /// fresh index can take its place while the old file stays for inspection, as Tracker does.
  /// Returns the new path of the database file.
  public func movedAside(at date: Date = Date()) throws(IndexLocationError) -> String {
    var seconds = time_t(date.timeIntervalSince1970)
    var parts = tm()
    localtime_r(&seconds, &parts)
    var buffer = [CChar](repeating: 0, count: 32)
    let count = strftime(&buffer, buffer.count, "%Y%m%dT%H%M%S", &parts)
    let stampText = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var target = path + ".corrupt-" + stampText
    var attempt = 1
    while access(target, F_OK) == 0 {
      attempt += 1
      target = path + ".corrupt-" + stampText + "-\(attempt)"
    }
    guard rename(path, target) == 0 else {
      throw .cannotMoveAside(path: path, reason: String(cString: strerror(errno)))
    }
    for suffix in ["-wal", "-shm"] where access(path + suffix, F_OK) == 0 {
      // A log that belongs to the damaged file must not be replayed into the new one.
      if rename(path + suffix, target + suffix) != 0 { unlink(path + suffix) }
    }
    return target
  }
}
