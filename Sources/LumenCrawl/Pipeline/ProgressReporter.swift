import Foundation
import Glibc
import LumenModel
import Synchronization

/// The crawl's progress line on a terminal: files seen, files per second, errors and the folder
/// being read, rewritten in place ten times a second and erased at the end. Without a terminal
/// there is no reporter at all (`forStandardError()` is nil), so logs and pipes stay clean.
public final class ProgressReporter: Sendable {
  /// A snapshot of a running crawl.
  public struct Snapshot: Sendable, Equatable {
    public var filesSeen: Int
    public var errors: Int
    public var currentFolder: String
    public var elapsedSeconds: Double

    public init(filesSeen: Int, errors: Int, currentFolder: String, elapsedSeconds: Double) {
      self.filesSeen = filesSeen
      self.errors = errors
      self.currentFolder = currentFolder
      self.elapsedSeconds = elapsedSeconds
    }
  }

  private let descriptor: Int32
  private let interval: Duration
  private let running = Atomic<Bool>(false)
  private let finished = DispatchSemaphore(value: 0)

  /// Writes to `descriptor` (which should be a terminal) every `interval`.
  public init(descriptor: Int32, interval: Duration = .milliseconds(100)) {
    self.descriptor = descriptor
    self.interval = interval
  }

  /// A reporter on standard error when it is a terminal; nil otherwise.
  public static func forStandardError() -> ProgressReporter? {
    isatty(STDERR_FILENO) == 1 ? ProgressReporter(descriptor: STDERR_FILENO) : nil
  }

  /// Starts redrawing from `snapshot` on a thread of its own.
  func start(_ snapshot: @escaping @Sendable () -> Snapshot) {
    guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
    let thread = Thread { [self] in
      while running.load(ordering: .acquiring) {
        draw(snapshot())
        Thread.sleep(
          forTimeInterval: Double(interval.components.attoseconds) / 1e18
            + Double(interval.components.seconds))
      }
      write("\r\u{1B}[K")
      finished.signal()
    }
    thread.name = "lumen-progress"
    thread.start()
  }

  /// Stops and erases the line.
  func stop() {
    guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
    finished.wait()
  }

  /// The line for a snapshot, cut to `width` columns (the folder loses its start first).
  public static func line(for snapshot: Snapshot, width: Int) -> String {
    let rate =
      snapshot.elapsedSeconds > 0 ? Double(snapshot.filesSeen) / snapshot.elapsedSeconds : 0
    var head = "Indexing: \(grouped(snapshot.filesSeen)) files, \(grouped(Int(rate)))/s"
    if snapshot.errors > 0 {
      head += ", \(grouped(snapshot.errors)) error\(snapshot.errors == 1 ? "" : "s")"
    }
    let folder = FaithfulPath.display(snapshot.currentFolder)
    let room = width - head.count - 2
    guard room > 4, !folder.isEmpty else { return String(head.prefix(max(0, width))) }
    let shown = folder.count <= room ? folder : "…" + folder.suffix(room - 1)
    return head + "  " + shown
  }

  private func draw(_ snapshot: Snapshot) {
    write("\r\u{1B}[K" + Self.line(for: snapshot, width: columns() - 1))
  }

  private func columns() -> Int {
    var size = winsize()
    if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
      return Int(size.ws_col)
    }
    return 80
  }

  private func write(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeMutableBytes {
        Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset)
      }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { return }
      offset += count
    }
  }

  private static func grouped(_ number: Int) -> String {
    let digits = String(number)
    var result = ""
    for (index, character) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { result += "," }
      result.append(character)
    }
    return result
  }
}
