import Dispatch
import Glibc
import Synchronization

/// Ctrl-C (and SIGTERM) as a clean stop: the first signal calls `onInterrupt` (which stops the
/// crawl after the batch being written, so the index holds whole batches only); a second one
/// ends the process at once with the signal's usual status, as people expect when they press
/// Ctrl-C twice.
///
/// `@unchecked Sendable`: the dispatch sources are only created in `init` and cancelled, which
/// Dispatch allows from any thread.
public final class InterruptSignals: @unchecked Sendable {
  private let sources: [any DispatchSourceSignal]
  private let signals: [Int32]
  private let received = SignalCount()

  private final class SignalCount: Sendable {
    let value = Atomic<Int>(0)
  }

  public init(
    _ signals: [Int32] = [SIGINT, SIGTERM], onInterrupt: @escaping @Sendable (Int32) -> Void
  ) {
    self.signals = signals
    var sources: [any DispatchSourceSignal] = []
    let queue = DispatchQueue(label: "lumen.signals")
    let received = self.received
    for number in signals {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler {
        if received.value.add(1, ordering: .relaxed).newValue == 1 {
          onInterrupt(number)
        } else {
          signal(number, SIG_DFL)
          raise(number)
        }
      }
      source.resume()
      sources.append(source)
    }
    self.sources = sources
  }

  /// Whether a signal arrived.
  public var wasInterrupted: Bool { received.value.load(ordering: .relaxed) > 0 }

  /// Restores the default handling.
  public func cancel() {
    for source in sources { source.cancel() }
    for number in signals { signal(number, SIG_DFL) }
  }
}
