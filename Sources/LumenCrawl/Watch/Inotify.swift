import CKernelCalls
import Glibc

/// One inotify instance: owns its descriptor (non-blocking, close-on-exec) and closes it when
/// released. Watches are added per folder; events are read in batches as the kernel queued them.
///
/// Not `Sendable` as a whole: one thread reads it. `addWatch`/`removeWatch` are plain system
/// calls and may be made from the walk's threads too.
public final class Inotify: @unchecked Sendable {
  public let descriptor: Int32
  private let buffer: UnsafeMutableRawBufferPointer
  private static let bufferSize = 256 * 1024

  public init() throws(SystemCallError) {
    let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard descriptor >= 0 else { throw SystemCallError("inotify_init1") }
    self.descriptor = descriptor
    buffer = UnsafeMutableRawBufferPointer.allocate(
      byteCount: Self.bufferSize, alignment: MemoryLayout<inotify_event>.alignment)
  }

  deinit {
    close(descriptor)
    buffer.deallocate()
  }

  /// Watches the folder at `path` (FaithfulPath form); returns the watch descriptor, the same
  /// one again for a folder already watched (also under another path, after a rename). Throws
  /// with ENOSPC when the user's watch limit is reached.
  public func addWatch(_ path: String, mask: InotifyMask = .folderChanges)
    throws(SystemCallError) -> Int32
  {
    try retryingOnInterrupt("inotify_add_watch") {
      SystemPath(path).withCString { inotify_add_watch(descriptor, $0, mask.rawValue) }
    }
  }

  /// Stops a watch; the kernel then queues an `IN_IGNORED` for it. A watch already gone (its
  /// folder deleted) is not an error worth reporting.
  public func removeWatch(_ watch: Int32) {
    _ = inotify_rm_watch(descriptor, watch)
  }

  /// Waits up to `milliseconds` (-1: forever) for events; true when some are ready.
  public func wait(milliseconds: Int32) -> Bool {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    while true {
      let result = poll(&entry, 1, milliseconds)
      if result >= 0 { return result > 0 }
      if errno != EINTR { return false }
    }
  }

  /// Reads the events queued now, up to about 1 MiB of them (nothing when none is). EINTR is
  /// retried; EAGAIN ends the batch.
  public func readAvailable() throws(SystemCallError) -> [InotifyEvent] {
    var events: [InotifyEvent] = []
    var total = 0
    while total < 4 * buffer.count {
      let count = read(descriptor, buffer.baseAddress, buffer.count)
      if count > 0 {
        events += InotifyEvent.parse(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        total += count
        continue
      }
      if count == 0 { return events }
      switch errno {
      case EINTR: continue
      case EAGAIN: return events
      default: throw SystemCallError("read")
      }
    }
    return events
  }

  /// Bytes waiting in the kernel's queue (`FIONREAD`): how far behind the reader is.
  public var queuedBytes: Int {
    Int(max(0, lumen_pending_bytes(descriptor)))
  }
}
