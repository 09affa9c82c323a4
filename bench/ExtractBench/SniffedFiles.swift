import Foundation
import LumenExtract
import LumenModel

/// The regular files under some folders, typed by Lumen's own sniffer (libmagic plus the
/// extension) exactly as the crawler types them, so the rule chain sees the MIME types it sees
/// in a real crawl. Sniffing happens once, before any timed pass: the crawler's sniffing is
/// measured by bench/crawl, not here.
struct SniffedFiles {
  let jobs: [ExtractionJob]
  /// Bytes of all the files together, for a MB/s figure beside files/s.
  let totalBytes: Int
  /// Files the sniffer could not open, with why.
  let unreadable: [String]

  init(folders: [String], registry: ContentTypeRegistry) {
    let sniffer = Sniffer(registry: registry)
    var jobs: [ExtractionJob] = []
    var bytes = 0
    var unreadable: [String] = []
    for folder in folders {
      for path in Self.regularFiles(under: folder) {
        do {
          let sniffed = try sniffer.sniffFile(atPath: path)
          jobs.append(
            ExtractionJob(
              path: path, mimeType: sniffed.mimeType, contentType: sniffed.contentType))
          bytes += Self.size(of: path)
        } catch {
          unreadable.append("\(path): \(error)")
        }
      }
    }
    self.jobs = jobs
    self.totalBytes = bytes
    self.unreadable = unreadable
  }

  /// Sorted, so every run and every machine reads the files in the same order.
  private static func regularFiles(under folder: String) -> [String] {
    let root = URL(fileURLWithPath: folder)
    guard
      let walker = FileManager.default.enumerator(
        at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [])
    else { return [] }
    var paths: [String] = []
    for case let url as URL in walker
    where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
      paths.append(url.path)
    }
    return paths.sorted()
  }

  private static func size(of path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue
      ?? 0
  }
}
