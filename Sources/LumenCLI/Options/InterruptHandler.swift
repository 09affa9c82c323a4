import Dispatch
import Foundation

/// Turns the first SIGINT or SIGTERM into a clean stop (the crawl commits the batch it holds
/// and leaves deletions for the next run); a second one ends the process at once, as people
/// expect from a second Ctrl-C.
final class InterruptHandler: @unchecked Sendable {
  private var sources: [DispatchSourceSignal] = []
  private let lock = NSLock()
  private var stopping = false

  /// `message` goes to standard error on the first signal (nil: nothing, e.g. for a live
  /// query, which has nothing to commit).
  init(
    message: String? = "stopping after the current batch (again to quit now)",
    onStop: @escaping @Sendable () -> Void
  ) {
    for number in [SIGINT, SIGTERM] {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { [self] in
        lock.lock()
        let second = stopping
        stopping = true
        lock.unlock()
        if second {
          signal(number, SIG_DFL)
          raise(number)
        }
        if let message {
          FileHandle.standardError.write(Data("\nlumen: \(message)\n".utf8))
        }
        onStop()
      }
      source.resume()
      sources.append(source)
    }
  }

  func cancel() {
    for source in sources { source.cancel() }
    signal(SIGINT, SIG_DFL)
    signal(SIGTERM, SIG_DFL)
  }
}
