import Foundation

/// The folders waiting to be read, shared by the walk's threads.
///
/// A stack (the walk goes depth first, which keeps the number of pending folders near the sum
/// of the fan-outs along one path) with a hard limit: a thread whose subfolders do not fit keeps
/// them and walks them itself, so memory stays flat however wide the tree. The walk is over when
/// the stack is empty and no thread is busy.
final class WalkQueue: @unchecked Sendable {
  // Guarded by `condition`.
  private let condition = NSCondition()
  private var stack: [DirectoryTask] = []
  private var busyWorkers = 0
  private var isStopped = false
  private var isFinished = false

  let limit: Int

  init(limit: Int) { self.limit = max(1, limit) }

  /// Adds what fits; returns what did not, for the caller to walk itself.
  func offer(_ tasks: [DirectoryTask]) -> [DirectoryTask] {
    guard !tasks.isEmpty else { return [] }
    condition.lock()
    defer { condition.unlock() }
    let room = max(0, limit - stack.count)
    let accepted = min(room, tasks.count)
    // Push in reverse so the first subfolder is popped first (a stable, name-ordered walk).
    stack.append(contentsOf: tasks[..<accepted].reversed())
    if accepted > 0 { condition.broadcast() }
    return Array(tasks[accepted...])
  }

  /// Whether another thread could use work right now.
  var hasRoom: Bool {
    condition.lock()
    defer { condition.unlock() }
    return stack.count < limit
  }

  /// The next folder; blocks while others are busy and may still add some. Nil when the walk is
  /// over or stopped. `finishedPrevious` says the caller completed the task it held.
  func next(finishedPrevious: Bool) -> DirectoryTask? {
    condition.lock()
    defer { condition.unlock() }
    if finishedPrevious { busyWorkers -= 1 }
    while true {
      if isStopped || isFinished { return nil }
      if let task = stack.popLast() {
        busyWorkers += 1
        return task
      }
      if busyWorkers == 0 {
        isFinished = true
        condition.broadcast()
        return nil
      }
      condition.wait()
    }
  }

  /// Ends the walk early: threads finish the folder in hand and take no other.
  func stop() {
    condition.lock()
    isStopped = true
    stack.removeAll()
    condition.broadcast()
    condition.unlock()
  }

  var wasStopped: Bool {
    condition.lock()
    defer { condition.unlock() }
    return isStopped
  }
}
