import Foundation

/// A first-in first-out hand-over between threads with a fixed capacity: a producer blocks
/// while it is full, so a fast walk cannot pile up records faster than the index writes them.
final class BoundedChannel<Element: Sendable>: @unchecked Sendable {
  // Guarded by `condition`.
  private let condition = NSCondition()
  private var buffer: [Element] = []
  private var head = 0
  private var isClosed = false
  let capacity: Int

  init(capacity: Int) { self.capacity = max(1, capacity) }

  /// Blocks while full; false when the channel was closed (the element is dropped).
  @discardableResult
  func send(_ element: Element) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while buffer.count - head >= capacity && !isClosed { condition.wait() }
    guard !isClosed else { return false }
    buffer.append(element)
    condition.broadcast()
    return true
  }

  /// Blocks while empty; nil once closed and drained.
  func receive() -> Element? {
    condition.lock()
    defer { condition.unlock() }
    while buffer.count == head && !isClosed { condition.wait() }
    guard buffer.count > head else { return nil }
    let element = buffer[head]
    head += 1
    if head > 64 && head * 2 > buffer.count {
      buffer.removeFirst(head)
      head = 0
    }
    condition.broadcast()
    return element
  }

  /// No more sends; receivers drain what is left.
  func close() {
    condition.lock()
    isClosed = true
    condition.broadcast()
    condition.unlock()
  }
}
