import Foundation
import Glibc
import Synchronization

/// Drains the inotify descriptor on a thread of its own into a queue in memory, so that the
/// kernel's queue (`max_queued_events`, 16384 by default) does not overflow while the watcher
/// is busy reconciling or walking: a `tar x` makes events far faster than they can be
/// indexed, and an overflow costs a rescan of every root. The queue here is bounded too
/// (`capacity` events); past it, events are dropped and reported as an overflow, exactly like
/// the kernel's.
final class EventReader: @unchecked Sendable {
  // Guarded by `condition`.
  private let condition = NSCondition()
  private var events: [InotifyEvent] = []
  private var overflowed = false
  private var finished = false

  private let inotify: Inotify
  private let capacity: Int
  private let paused: @Sendable () -> Bool
  private let stopped = Atomic<Bool>(false)
  private let failure = Mutex<String?>(nil)

  init(inotify: Inotify, capacity: Int, paused: @escaping @Sendable () -> Bool) {
    self.inotify = inotify
    self.capacity = capacity
    self.paused = paused
  }

  func start() {
    let thread = Thread { [self] in
      while !stopped.load(ordering: .relaxed) {
        if paused() {
          usleep(20_000)
          continue
        }
        guard inotify.wait(milliseconds: 100), !paused() else { continue }
        do {
          append(try inotify.readAvailable())
        } catch {
          failure.withLock { $0 = "reading inotify events: \(error)" }
          usleep(100_000)
        }
      }
      condition.lock()
      finished = true
      condition.broadcast()
      condition.unlock()
    }
    thread.name = "lumen-inotify"
    thread.start()
  }

  /// Ends the thread (within 100 ms) and waits for it.
  func stop() {
    stopped.store(true, ordering: .relaxed)
    condition.lock()
    while !finished { condition.wait() }
    condition.unlock()
  }

  private func append(_ batch: [InotifyEvent]) {
    guard !batch.isEmpty else { return }
    condition.lock()
    if events.count + batch.count > capacity {
      events.removeAll()
      overflowed = true
    } else {
      events += batch
    }
    condition.broadcast()
    condition.unlock()
  }

  /// Waits up to `milliseconds` for events, then takes all there are (and whether some were
  /// lost since the last call).
  func take(waitingUpTo milliseconds: Int32) -> (events: [InotifyEvent], overflowed: Bool) {
    condition.lock()
    defer { condition.unlock() }
    if events.isEmpty && !overflowed && milliseconds > 0 {
      _ = condition.wait(until: Date(timeIntervalSinceNow: Double(milliseconds) / 1000))
    }
    defer {
      events = []
      overflowed = false
    }
    return (events, overflowed)
  }

  /// Events read but not taken, plus bytes still in the kernel's queue.
  var backlog: (events: Int, kernelBytes: Int) {
    condition.lock()
    let count = events.count
    condition.unlock()
    return (count, inotify.queuedBytes)
  }

  /// The last read error, once.
  func takeFailure() -> String? {
    failure.withLock { message in
      defer { message = nil }; return message
    }
  }
}
