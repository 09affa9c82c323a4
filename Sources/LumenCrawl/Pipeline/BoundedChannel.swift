import Foundation

/// A first-in first-out hand-over between threads with a fixed capacity: a producer blocks
/// while it is full, so a fast walk cannot pile up records faster than the index writes them.
///
/// Full means `capacity` elements, or (when elements have weights) elements weighing
/// `weightLimit` together: a chunk of records of a text-heavy folder holds megabytes of
/// extracted text, and a count alone would let sixteen of them wait here. One element is
/// always let in, however heavy, so that nothing waits forever.
final class BoundedChannel<Element: Sendable>: @unchecked Sendable {
  // Guarded by `condition`. A ring of `capacity` slots: a received element's slot is emptied
  // at once, so nothing the receiver has taken stays referenced here.
  private let condition = NSCondition()
  private var slots: [(element: Element, weight: Int)?]
  private var head = 0
  private var count = 0
  private var weight = 0
  private var isClosed = false
  let capacity: Int
  let weightLimit: Int

  init(capacity: Int, weightLimit: Int = .max) {
    self.capacity = max(1, capacity)
    self.weightLimit = max(1, weightLimit)
    slots = Array(repeating: nil, count: self.capacity)
  }

  /// Blocks while full; false when the channel was closed (the element is dropped).
  @discardableResult
  func send(_ element: Element, weight elementWeight: Int = 0) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while !isClosed
      && (count >= capacity || (count > 0 && weight + elementWeight > weightLimit))
    {
      condition.wait()
    }
    guard !isClosed else { return false }
    slots[(head + count) % capacity] = (element, elementWeight)
    count += 1
    weight += elementWeight
    condition.broadcast()
    return true
  }

  /// Blocks while empty; nil once closed and drained.
  func receive() -> Element? {
    receiveWeighed()?.element
  }

  /// `receive`, with the weight the element was sent with.
  func receiveWeighed() -> (element: Element, weight: Int)? {
    condition.lock()
    defer { condition.unlock() }
    while count == 0 && !isClosed { condition.wait() }
    guard count > 0, let taken = slots[head].take() else { return nil }
    head = (head + 1) % capacity
    count -= 1
    weight -= taken.weight
    condition.broadcast()
    return taken
  }

  /// No more sends; receivers drain what is left.
  func close() {
    condition.lock()
    isClosed = true
    condition.broadcast()
    condition.unlock()
  }
}
