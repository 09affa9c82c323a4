import Synchronization

/// The running totals of a crawl, bumped from every crawl thread and read by the progress line.
final class CrawlCounters: Sendable {
  let added = Atomic<Int>(0)
  let updated = Atomic<Int>(0)
  let moved = Atomic<Int>(0)
  let removed = Atomic<Int>(0)
  let unchanged = Atomic<Int>(0)
  let failed = Atomic<Int>(0)
  let reExtracted = Atomic<Int>(0)
  let extractionFailures = Atomic<Int>(0)
  let committed = Atomic<Int>(0)
  private let failures = Mutex<[CrawlSummary.Failure]>([])
  static let keptFailures = 1000

  func fail(_ path: String, _ reason: String) {
    failed.add(1, ordering: .relaxed)
    failures.withLock {
      if $0.count < Self.keptFailures { $0.append(.init(path: path, reason: reason)) }
    }
  }

  func fill(_ summary: inout CrawlSummary) {
    summary.added = added.load(ordering: .relaxed)
    summary.updated = updated.load(ordering: .relaxed)
    summary.moved = moved.load(ordering: .relaxed)
    summary.removed = removed.load(ordering: .relaxed)
    summary.unchanged = unchanged.load(ordering: .relaxed)
    summary.failed = failed.load(ordering: .relaxed)
    summary.reExtracted = reExtracted.load(ordering: .relaxed)
    summary.extractionFailures = extractionFailures.load(ordering: .relaxed)
    summary.errors = failures.withLock { $0 }.sorted { $0.path < $1.path }
  }
}
