import Glibc
import LumenExtract

/// Why a worker gave no result for a file, in words for `lumen status`, and whether the file
/// is to blame. A file is blamed for a crash, a hang, running out of memory or garbage on the
/// pipe; it is not blamed when the worker was killed from outside (a service manager's
/// SIGTERM to the whole group), and is then tried once more.
struct WorkerFailure: Sendable, Equatable {
  enum Kind: Sendable, Equatable {
    case crashed
    case timedOut
    case outOfMemory
    case garbled
    case killedFromOutside
  }

  let kind: Kind
  let reason: String

  var blamesFile: Bool { kind != .killedFromOutside }

  static func timedOut(after seconds: Double) -> WorkerFailure {
    WorkerFailure(
      kind: .timedOut,
      reason: "took longer than its \(format(seconds)) s deadline (Timeout=); the worker was killed"
    )
  }

  static func garbled(_ detail: String) -> WorkerFailure {
    WorkerFailure(kind: .garbled, reason: "the worker broke the protocol: \(detail)")
  }

  /// Classifies how a worker ended while it held a file.
  static func ended(
    _ termination: WorkerTermination, lastError: String?, memoryCap: Int
  ) -> WorkerFailure {
    let detail = lastError.map { ": \($0)" } ?? ""
    if let signal = termination.signal {
      switch signal {
      case SIGTERM, SIGINT, SIGHUP, SIGKILL, SIGQUIT:
        return WorkerFailure(
          kind: .killedFromOutside, reason: "the worker was killed by \(name(of: signal))")
      case SIGALRM, SIGXCPU:
        return WorkerFailure(
          kind: .timedOut, reason: "overran its deadline and the worker stopped itself")
      default:
        if mentionsMemory(lastError) {
          return outOfMemory(cap: memoryCap, detail: detail)
        }
        return WorkerFailure(
          kind: .crashed, reason: "the worker crashed with \(name(of: signal))\(detail)")
      }
    }
    let status = termination.exitStatus ?? 0
    if mentionsMemory(lastError) { return outOfMemory(cap: memoryCap, detail: detail) }
    if status == 0 {
      return WorkerFailure(kind: .crashed, reason: "the worker exited without a result\(detail)")
    }
    return WorkerFailure(kind: .crashed, reason: "the worker exited with status \(status)\(detail)")
  }

  private static func outOfMemory(cap: Int, detail: String) -> WorkerFailure {
    WorkerFailure(
      kind: .outOfMemory,
      reason: "ran out of its \(cap >> 20) MiB memory cap (MaxMemory=)\(detail)")
  }

  /// Allocation failures as the Swift runtime, C++ (std::bad_alloc) and C libraries word them.
  private static func mentionsMemory(_ text: String?) -> Bool {
    guard let text = text?.lowercased() else { return false }
    return ["allocate", "bad_alloc", "out of memory", "memory exhausted"].contains {
      text.contains($0)
    }
  }

  static func name(of signal: Int32) -> String {
    let names: [Int32: String] = [
      SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGFPE: "SIGFPE",
      SIGABRT: "SIGABRT", SIGTRAP: "SIGTRAP", SIGSYS: "SIGSYS", SIGKILL: "SIGKILL",
      SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGHUP: "SIGHUP", SIGQUIT: "SIGQUIT",
      SIGALRM: "SIGALRM", SIGXCPU: "SIGXCPU", SIGPIPE: "SIGPIPE",
    ]
    return names[signal] ?? "signal \(signal)"
  }

  private static func format(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
  }
}
