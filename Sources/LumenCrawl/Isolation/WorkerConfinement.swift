import CSandbox
import Foundation
import Glibc

/// How an extraction worker gives up what it does not need before it reads any file:
/// a memory cap (RLIMIT_AS), no_new_privs, a read-only Landlock domain over the whole file
/// system, and a seccomp filter without sockets, exec or writing calls. The worker receives
/// paths over its pipe, so it must be able to read any file its user can; it needs to write
/// nothing but the pipe it already holds.
///
/// Each step that the kernel refuses is reported, not fatal: an old kernel without Landlock
/// still gets seccomp and the memory cap.
public enum WorkerConfinement {
  /// Sets the address-space cap: the baseline (what the runtime and libraries mapped at start,
  /// measured) plus `extraBytes`. Returns (baseline, limit).
  static func capAddressSpace(extraBytes: Int) -> (baseline: Int, limit: Int) {
    let baseline = currentAddressSpace()
    let limit = baseline + extraBytes
    var value = rlimit(rlim_cur: rlim_t(limit), rlim_max: rlim_t(limit))
    _ = setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &value)
    return (baseline, limit)
  }

  /// Lowers (or raises, up to the hard cap) the soft address-space limit for one extractor.
  static func setSoftAddressSpace(_ bytes: Int) {
    var value = rlimit()
    guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &value) == 0 else { return }
    value.rlim_cur = min(rlim_t(bytes), value.rlim_max)
    _ = setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &value)
  }

  /// no_new_privs, Landlock (when offered), then seccomp; in that order because Landlock and
  /// seccomp both need no_new_privs, and the seccomp filter is what forbids further changes.
  static func apply(into report: inout ConfinementReport) {
    report.threadsAtConfinement = threadCount()
    report.noNewPrivileges = lumen_no_new_privs() == 0
    let abi = lumen_landlock_abi()
    if abi > 0 {
      report.landlockABI = Int(abi)
      let status = lumen_landlock_read_only(abi)
      report.landlock = status == 0 ? "read-only" : "refused: \(message(status))"
    } else {
      report.landlock = "unavailable: \(message(-abi))"
    }
    let status = lumen_seccomp_confine()
    report.seccomp = status == 0 ? "on" : "refused: \(message(status))"
  }

  /// The process's mapped address space, from /proc/self/statm (in pages).
  static func currentAddressSpace() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
      let pages = text.split(separator: " ").first.flatMap({ Int($0) })
    else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }

  public static func threadNames() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).map {
      (try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8)) ?? "?"
    }
  }

  private static func threadCount() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
  }

  private static func message(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}
