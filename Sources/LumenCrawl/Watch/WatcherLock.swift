import Foundation
import Glibc
import Synchronization

/// One watcher per index: `lumen watch` holds an exclusive `flock` on `<index>.watch.lock`
/// (which holds its pid) for as long as it runs, and rewrites `<index>.watch.json` with its
/// status. The kernel drops the lock when the process ends however it ends, so a crashed
/// watcher never leaves a stale lock behind; `lumen status` and `lumen reset` test the lock
/// rather than trusting the files.
public final class WatcherLock: @unchecked Sendable {
  /// The lock file and status file of the index at `databasePath`.
  public struct Files: Sendable, Equatable {
    public let lock: String
    public let status: String

    public init(databasePath: String) {
      lock = databasePath + ".watch.lock"
      status = databasePath + ".watch.json"
    }
  }

  /// Another process holds the lock.
  public struct Held: Error, Equatable, CustomStringConvertible {
    public let pid: Int32?
    public let lockFile: String

    public var description: String {
      let who = pid.map { "process \($0)" } ?? "another process"
      return "another lumen watch (\(who)) is already keeping this index up to date"
        + " (lock \(lockFile)); stop it first"
    }
  }

  public let files: Files
  private let descriptor: Int32
  private let released = Atomic<Bool>(false)

  /// Takes the lock and writes this process's pid into it; throws `Held` naming the holder
  /// when another process has it.
  public init(databasePath: String) throws {
    files = Files(databasePath: databasePath)
    let descriptor = open(files.lock, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw SystemCallError("open \(files.lock)")
    }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      let error = errno
      close(descriptor)
      if error == EWOULDBLOCK {
        throw Held(pid: Self.pid(in: files.lock), lockFile: files.lock)
      }
      throw SystemCallError("flock \(files.lock)", code: error)
    }
    self.descriptor = descriptor
    let text = Array("\(getpid())\n".utf8)
    _ = ftruncate(descriptor, 0)
    _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
  }

  deinit { release() }

  /// Removes the status file (it describes a running watcher only) and lets the lock go.
  /// Idempotent; also done when the lock is released from memory or the process ends.
  public func release() {
    guard !released.exchange(true, ordering: .relaxed) else { return }
    unlink(files.status)
    _ = ftruncate(descriptor, 0)
    close(descriptor)
  }

  /// Writes the status file atomically (a reader never sees half of it).
  public func writeStatus(_ status: WatcherStatus) {
    guard !released.load(ordering: .relaxed) else { return }
    let temporary = files.status + ".tmp"
    guard FileManager.default.createFile(atPath: temporary, contents: status.encoded()) else {
      return
    }
    rename(temporary, files.status)
  }

  /// Whether a watcher holds the lock of the index at `databasePath`, and if so its pid and
  /// last status. Takes and releases a shared lock to find out, never blocking.
  public static func holder(databasePath: String) -> (pid: Int32?, status: WatcherStatus?)? {
    let files = Files(databasePath: databasePath)
    let descriptor = open(files.lock, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
      flock(descriptor, LOCK_UN)
      return nil
    }
    guard errno == EWOULDBLOCK else { return nil }
    let status = FileManager.default.contents(atPath: files.status).flatMap(WatcherStatus.decode)
    return (pid(in: files.lock) ?? status?.pid, status)
  }

  private static func pid(in file: String) -> Int32? {
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
    return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
  }
}
