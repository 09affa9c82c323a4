import Dispatch
import LumenExtract
import Synchronization

/// One pass of the extraction service over every job, on `workers` threads that each take the
/// next file from a shared counter (files differ a lot in cost: a 40-page PDF next to a
/// thumbnail), and what came of it.
final class ExtractionPass: Sendable {
  struct Tally: Sendable {
    var succeeded = 0
    var failed = 0
    /// Files no rule matched (the sniffer's type has no extractor).
    var unmatched = 0
    /// Files by the extractor that produced their attributes.
    var byExtractor: [String: Int] = [:]
    /// A few failures, path first, to say why a family's numbers carry failures.
    var failureSamples: [String] = []
    /// The files that took longest, longest first: one slow file can be a family's whole story.
    var slowest: [(path: String, seconds: Double)] = []

    mutating func noteTime(_ seconds: Double, of path: String) {
      guard slowest.count < Self.slowestKept || seconds > slowest.last!.seconds else { return }
      slowest.append((path, seconds))
      slowest.sort { $0.seconds > $1.seconds }
      if slowest.count > Self.slowestKept { slowest.removeLast() }
    }

    static let slowestKept = 3
  }

  private let service: ExtractionService
  private let jobs: [ExtractionJob]
  private let next = Atomic<Int>(0)
  private let tally = Mutex(Tally())

  init(service: ExtractionService, jobs: [ExtractionJob]) {
    self.service = service
    self.jobs = jobs
  }

  /// Runs the pass and returns its wall-clock seconds and tally.
  static func run(service: ExtractionService, jobs: [ExtractionJob], workers: Int) -> (
    seconds: Double, tally: Tally
  ) {
    let pass = ExtractionPass(service: service, jobs: jobs)
    let clock = ContinuousClock()
    let start = clock.now
    DispatchQueue.concurrentPerform(iterations: workers) { _ in pass.work() }
    let elapsed = clock.now - start
    let (whole, fraction) = elapsed.components
    return (Double(whole) + Double(fraction) / 1e18, pass.tally.withLock { $0 })
  }

  private func work() {
    while true {
      let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
      guard index < jobs.count else { return }
      let result = service.extract(jobs[index])
      tally.withLock { tally in
        tally.noteTime(result.elapsedSeconds, of: jobs[index].path)
        if let extractor = result.extractor {
          tally.succeeded += 1
          tally.byExtractor[extractor.name, default: 0] += 1
        } else if result.candidates.isEmpty {
          tally.unmatched += 1
        } else {
          tally.failed += 1
          if tally.failureSamples.count < 5 {
            let why = result.failures.map { "\($0)" }.joined(separator: "; ")
            tally.failureSamples.append("\(jobs[index].path) (\(jobs[index].mimeType)): \(why)")
          }
        }
      }
    }
  }
}
