import Foundation
import LumenExtract

/// The shared real-world corpus (`../shared/corpus` next to the package) and its oracle files.
enum Corpus {
  static let root: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Support
    .deletingLastPathComponent()  // LumenExtractTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // package root
    .appendingPathComponent("../shared/corpus").standardizedFileURL

  /// One oracle record per corpus file, keyed by `file` (`documents/testPDF.pdf`).
  static func expected(_ name: String) -> [String: [String: Any]] {
    let url = root.appendingPathComponent("expected/\(name).jsonl")
    guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [:] }
    var records: [String: [String: Any]] = [:]
    for line in text.split(separator: "\n") where !line.isEmpty {
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)),
        let record = object as? [String: Any], let file = record["file"] as? String
      else { continue }
      records[file] = record
    }
    return records
  }

  /// Corpus files of a group (`documents`) whose names end with one of `extensions`, sorted.
  static func files(in group: String, extensions: [String]) -> [String] {
    let folder = root.appendingPathComponent(group)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { name in extensions.contains { name.lowercased().hasSuffix(".\($0)") } }
      .sorted().map { "\(group)/\($0)" }
  }

  static func path(_ file: String) -> String { root.appendingPathComponent(file).path }

  static func request(
    _ file: String, mimeType: String, contentType: String = "public.data",
    limits: ExtractionLimits = ExtractionLimits()
  ) -> ExtractionRequest {
    ExtractionRequest(
      path: path(file), mimeType: mimeType, contentType: contentType, limits: limits)
  }
}
