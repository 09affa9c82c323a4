import Foundation

/// A first-in first-out hand-over between threads with a fixed capacity: a producer blocks
/// while it is full, so a fast walk cannot pile up records faster than the index writes them.
final class BoundedChannel<Element: Sendable>: @unchecked Sendable {
  // Guarded by `condition`. A ring of `capacity` slots: a received element's slot is emptied
  // at once, so nothing the receiver has taken stays referenced here.
  private let condition = NSCondition()
  private var slots: [Element?]
  private var head = 0
  private var count = 0
  private var isClosed = false
  let capacity: Int

  init(capacity: Int) {
    self.capacity = max(1, capacity)
    slots = Array(repeating: nil, count: self.capacity)
  }

  /// Blocks while full; false when the channel was closed (the element is dropped).
  @discardableResult
  func send(_ element: Element) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while count >= capacity && !isClosed { condition.wait() }
    guard !isClosed else { return false }
    slots[(head + count) % capacity] = element
    count += 1
    condition.broadcast()
    return true
  }

  /// Blocks while empty; nil once closed and drained.
  func receive() -> Element? {
    condition.lock()
    defer { condition.unlock() }
    while count == 0 && !isClosed { condition.wait() }
    guard count > 0 else { return nil }
    let element = slots[head].take()
    head = (head + 1) % capacity
    count -= 1
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
