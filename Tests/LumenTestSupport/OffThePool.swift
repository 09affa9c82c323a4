import Foundation

/// Runs blocking work, such as waiting for a child process, on a thread of its own.
///
/// Swift's cooperative pool has one thread per core, two on the machines Lumen is tested on. A
/// test that blocks one of them while `lumen` runs leaves every other test in the process with
/// one thread or none: in a full parallel run the watcher tests' polling went unscheduled for
/// twenty seconds and timed out. Waiting here costs a thread, not the pool.
public enum OffThePool {
  public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T
  {
    try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
  }
}
