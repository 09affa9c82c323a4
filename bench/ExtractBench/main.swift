// Throughput of Lumen's extractors over a folder tree, for bench/extract. Not a test: it
// measures, it does not judge. Usage:
//   ExtractBench --rules DIR [--jobs N] FOLDER...
// Prints one JSON object: files, succeeded, failed, seconds, files per second, peak RSS.
import Dispatch
import Foundation
import LumenExtract

struct Options {
  var rules = "rules"
  var jobs = 1
  var folders: [String] = []
}

func parseOptions() -> Options {
  var options = Options()
  var arguments = CommandLine.arguments.dropFirst()
  while let argument = arguments.popFirst() {
    switch argument {
    case "--rules": options.rules = arguments.popFirst() ?? options.rules
    case "--jobs": options.jobs = max(1, Int(arguments.popFirst() ?? "1") ?? 1)
    default: options.folders.append(argument)
    }
  }
  return options
}

/// The MIME types the corpus's extensions stand for (what libmagic says for these files); the
/// crawler's sniffer is not part of what this measures.
let mimeByExtension: [String: String] = [
  "jpg": "image/jpeg", "jpeg": "image/jpeg", "tif": "image/tiff", "tiff": "image/tiff",
  "png": "image/png", "gif": "image/gif", "webp": "image/webp", "heic": "image/heic",
  "heif": "image/heif", "dng": "image/x-adobe-dng", "mp3": "audio/mpeg", "flac": "audio/flac",
  "ogg": "audio/ogg", "oga": "audio/ogg", "opus": "audio/ogg", "m4a": "audio/x-m4a",
]

func files(in folders: [String]) -> [(String, String)] {
  var found: [(String, String)] = []
  for folder in folders {
    guard let walker = FileManager.default.enumerator(atPath: folder) else { continue }
    while let relative = walker.nextObject() as? String {
      let ext = (relative as NSString).pathExtension.lowercased()
      if let mime = mimeByExtension[ext] { found.append((folder + "/" + relative, mime)) }
    }
  }
  return found
}

func peakResidentKilobytes() -> Int {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
    return 0
  }
  for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
    return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
  }
  return 0
}

final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private(set) var succeeded = 0
  private(set) var failed = 0
  func add(_ ok: Bool) {
    lock.lock()
    if ok { succeeded += 1 } else { failed += 1 }
    lock.unlock()
  }
}

let options = parseOptions()
let service: ExtractionService
do {
  service = ExtractionService(
    rules: try RuleSet.load(shippedDirectory: options.rules, userDirectory: nil))
} catch {
  FileHandle.standardError.write(Data("ExtractBench: \(error)\n".utf8))
  exit(2)
}
let list = files(in: options.folders)
let counter = Counter()
let start = DispatchTime.now()
DispatchQueue.concurrentPerform(iterations: options.jobs) { worker in
  for index in stride(from: worker, to: list.count, by: options.jobs) {
    let (path, mime) = list[index]
    counter.add(service.extract(ExtractionJob(path: path, mimeType: mime)).succeeded)
  }
}
let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
let report: [String: Any] = [
  "files": list.count, "succeeded": counter.succeeded, "failed": counter.failed,
  "jobs": options.jobs, "seconds": (seconds * 1000).rounded() / 1000,
  "filesPerSecond": seconds > 0 ? (Double(list.count) / seconds).rounded() : 0,
  "peakRSSKiB": peakResidentKilobytes(),
]
let json = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
print(String(decoding: json, as: UTF8.self))
