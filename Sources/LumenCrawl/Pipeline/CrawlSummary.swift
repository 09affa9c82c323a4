import Foundation

/// What one crawl did, as `lumen index` reports it (`--json` prints it as one object).
public struct CrawlSummary: Sendable, Equatable, Codable {
  /// Items new to the index.
  public var added = 0
  /// Items whose file changed (size, mtime, ctime) and were written again.
  public var updated = 0
  /// Items whose file moved inside the roots: the item kept its attributes under the new path.
  public var moved = 0
  /// Items removed because their file is gone (or now out of scope or unreadable).
  public var removed = 0
  /// Items whose file had not changed: not read, not written.
  public var unchanged = 0
  /// Entries that could not be indexed (see `errors`).
  public var failed = 0
  /// Wall-clock seconds.
  public var seconds = 0.0
  /// Files whose content was read again (sniffed and extracted), for benchmarks and tests:
  /// 0 on a crawl where nothing changed.
  public var reExtracted = 0
  /// Files whose extractor took its worker down this crawl (a crash, its deadline, its memory
  /// cap): indexed with file-system attributes and type only, and recorded so they are not
  /// read again until they or the extractor change (`lumen status` lists them).
  public var extractionFailures = 0
  /// Folders read.
  public var folders = 0
  /// Entries the scope kept out (hidden, ignored, excluded).
  public var excluded = 0
  /// The previous crawl of this index was interrupted; this one picked up after its last
  /// committed batch.
  public var resumedInterruptedCrawl = false
  /// This crawl was stopped (Ctrl-C) after a committed batch; deletions were left for the next.
  public var interrupted = false
  /// The first errors, each with its path; `failed` counts them all.
  public var errors: [Failure] = []
  /// What the extraction workers went through, when extraction ran in workers.
  public var workers: WorkerPoolStatistics.Snapshot?

  public init() {}

  /// One entry that could not be indexed.
  public struct Failure: Sendable, Equatable, Codable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
      self.path = path
      self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
  }

  /// The summary as one line of JSON with stable key order.
  public func json() -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
  }
}
