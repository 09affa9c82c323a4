import Foundation

/// A task executor with a thread of its own. `Blocking.run` starts its tasks here rather than
/// on Swift's cooperative pool: that pool has one thread per core, and when other code in the
/// process blocks those threads (a test waiting for a child process, a library doing I/O on
/// them), a crawl or a watcher waiting for the index would wait with them. GRDB's async calls
/// suspend while SQLite works on GRDB's own queues, so one thread serves every caller.
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
  // Guarded by `condition`.
  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []

  init(name: String) {
    let thread = Thread { [self] in
      while true {
        condition.lock()
        while jobs.isEmpty { condition.wait() }
        let batch = jobs
        jobs.removeAll(keepingCapacity: true)
        condition.unlock()
        for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
      }
    }
    thread.name = name
    thread.start()
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    jobs.append(job)
    condition.signal()
    condition.unlock()
  }
}
