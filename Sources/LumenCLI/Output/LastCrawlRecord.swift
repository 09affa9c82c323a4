import Foundation
import LumenCrawl
import LumenModel

/// The last `lumen index` run of an index, kept beside the database (`<db>.last-crawl.json`,
/// 0600) so `lumen status` can show when it ran and the errors it met without a schema change
/// for what is a report, not index data. Written by rename, so a reader never sees half a file.
struct LastCrawlRecord: Codable {
  var finished: Date
  var roots: [String]
  var summary: CrawlSummary

  static func path(forDatabase database: String) -> String { database + ".last-crawl.json" }

  func save(forDatabase database: String) {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = [.sortedKeys]
    guard let data = try? encoder.encode(self) else { return }
    let target = Self.path(forDatabase: database)
    let temporary = target + ".tmp"
    guard
      FileManager.default.createFile(
        atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600])
    else { return }
    if rename(temporary, target) != 0 { unlink(temporary) }
  }

  static func load(forDatabase database: String) -> LastCrawlRecord? {
    guard let data = FileManager.default.contents(atPath: path(forDatabase: database)) else {
      return nil
    }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return try? decoder.decode(LastCrawlRecord.self, from: data)
  }
}
