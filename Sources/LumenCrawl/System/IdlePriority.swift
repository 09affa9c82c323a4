import CKernelCalls
import Foundation
import Glibc

/// Puts the whole process at idle CPU priority (SCHED_IDLE) and in the idle I/O class, so that
/// a background crawl or watcher only uses what nothing else wants.
///
/// Both are per thread on Linux and inherited by threads created later, so every thread that
/// exists now (the Swift runtime has started some already) is changed, by its id from
/// /proc/self/task.
public enum IdlePriority {
  /// Applies both; returns the problems met (empty on success). A failure is not fatal: the
  /// watcher still works, only less politely.
  @discardableResult
  public static func apply() -> [String] {
    var problems: [String] = []
    // Threads the runtime starts meanwhile inherit from their creator, which may not have been
    // changed yet: look again until no thread is new.
    var done: Set<Int32> = []
    while case let fresh = threadIDs().filter({ !done.contains($0) }), !fresh.isEmpty {
      done.formUnion(fresh)
      problems += lower(fresh)
    }
    return problems
  }

  private static func lower(_ threads: [Int32]) -> [String] {
    var problems: [String] = []
    // This thread last, so that the others are changed at normal speed on a busy machine.
    let me = lumen_thread_id()
    for thread in threads.filter({ $0 != me }) + threads.filter({ $0 == me }) {
      if lumen_set_idle_cpu_priority(thread) != 0 && errno != ESRCH {
        problems.append("SCHED_IDLE for thread \(thread): \(String(cString: strerror(errno)))")
      }
      if lumen_set_idle_io_priority(thread) != 0 && errno != ESRCH {
        problems.append("idle I/O class for thread \(thread): \(String(cString: strerror(errno)))")
      }
    }
    return problems
  }

  /// Whether the calling thread runs at idle CPU and I/O priority.
  public static var isIdle: Bool {
    lumen_cpu_policy(0) == 5 && lumen_io_priority_class(0) == 3
  }

  private static func threadIDs() -> [Int32] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    let ids = names.compactMap(Int32.init)
    return ids.isEmpty ? [0] : ids
  }
}
