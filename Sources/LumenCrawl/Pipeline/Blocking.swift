import Foundation
import Synchronization

/// Runs async index calls from the crawl's own threads (never from Swift's cooperative pool):
/// the walk runs on plain threads so that blocking system calls never starve async work, and
/// those threads wait here for the index.
enum Blocking {
  static func run<T: Sendable>(
    _ body: @escaping @Sendable () async throws -> T
  ) throws -> T {
    let semaphore = DispatchSemaphore(value: 0)
    let result = Box<T>()
    Task(executorPreference: executor) {
      let outcome: Result<T, any Error>
      do {
        outcome = .success(try await body())
      } catch {
        outcome = .failure(error)
      }
      result.value.withLock { $0 = outcome }
      semaphore.signal()
    }
    semaphore.wait()
    return try result.value.withLock { $0! }.get()
  }

  /// Where the tasks run: not the cooperative pool, which other code may be blocking.
  private static let executor = ThreadExecutor(name: "lumen-index-calls")

  private final class Box<T: Sendable>: Sendable {
    let value = Mutex<Result<T, any Error>?>(nil)
  }
}
