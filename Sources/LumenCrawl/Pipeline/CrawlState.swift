import Foundation

/// The client state stored with each committed batch (at most 250 bytes): enough for the next
/// crawl to know whether this one finished. Nothing else is needed to resume: whatever a batch
/// committed carries its file stamp, so the next crawl skips it as unchanged and re-reads only
/// what no committed batch holds.
struct CrawlState: Codable, Equatable {
  /// Format version.
  var v = 1
  /// When the crawl started (seconds since 1970).
  var started: Int64
  var complete: Bool
  /// Items written so far by this crawl.
  var items: Int
  /// Folders read so far.
  var folders: Int

  func encoded() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return (try? encoder.encode(self)) ?? Data()
  }

  static func decode(_ data: Data?) -> CrawlState? {
    guard let data else { return nil }
    return try? JSONDecoder().decode(CrawlState.self, from: data)
  }
}
