import Foundation
import Glibc

/// Fault injection for tests and bench/faults: `LUMEN_WORKER_FAULTS` makes a worker misbehave,
/// on purpose and in the real extraction slot, on the files whose path contains a marker, so
/// that the containment of a crash, a hang and a memory blow-up is shown with the real pool,
/// the real limits and the real binary. `crash=M;hang=M;hog=M`, any subset; never set in use.
struct WorkerFaults: Sendable {
  var crash: String?
  var hang: String?
  var hog: String?

  static let environmentVariable = "LUMEN_WORKER_FAULTS"

  init(environment: [String: String] = ProcessInfo.processInfo.environment) {
    for part in (environment[Self.environmentVariable] ?? "").split(separator: ";") {
      let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
      guard pair.count == 2, !pair[1].isEmpty else { continue }
      switch pair[0] {
      case "crash": crash = pair[1]
      case "hang": hang = pair[1]
      case "hog": hog = pair[1]
      default: continue
      }
    }
  }

  /// Misbehaves if `path` carries a marker; returns otherwise.
  func strike(path: String) {
    if let crash, path.contains(crash) {
      // A wild write, as a library with a broken offset check makes: SIGSEGV.
      UnsafeMutablePointer<Int>(bitPattern: 0x10)!.pointee = 1
    }
    if let hang, path.contains(hang) {
      while true { sleep(60) }
    }
    if let hog, path.contains(hog) {
      // Allocates until the address-space cap stops it, as a decoder trusting a huge
      // declared size does. RLIMIT_AS counts mappings, touched or not, so the blocks are
      // left untouched (filling them would only make the test slow).
      var held: [UnsafeMutableRawPointer] = []
      while true {
        guard let block = malloc(16 << 20) else {
          ExtractionWorker.complain("cannot allocate memory")
          abort()
        }
        held.append(block)
      }
    }
  }
}
