// Throughput of Lumen's extractors over folder trees, for bench/extract. Not a test: it
// measures, it does not judge. Usage:
//   ExtractBench --rules DIR [--jobs N] [--runs R] FOLDER...
// Files are typed by Lumen's sniffer first (untimed), then run through the same rule chain as
// `lumen index` (ExtractionService): one untimed warm-up pass over each distinct file name, then
// R timed runs, each of as
// many whole passes as last --min-seconds (default 1). Prints one JSON object: files, jobs,
// per-run seconds and passes, files/s and MB/s as min/median/max, the tally of
// the last pass (by extractor, failures, the slowest files), and the process's peak RSS.
import Foundation
import LumenExtract

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("ExtractBench: \(message)\n".utf8))
  exit(2)
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

let options: BenchOptions
do {
  options = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  fail(error.description)
}

let service: ExtractionService
let files: SniffedFiles
do {
  let directory = RulesDirectory(path: options.rules, origin: .environment)
  let registry = try ContentTypeRules.registry(in: [directory])
  service = ExtractionService(
    rules: try RuleSet.load(shippedDirectory: options.rules, userDirectory: nil))
  files = SniffedFiles(folders: options.folders, registry: registry)
} catch {
  fail("\(error)")
}
if files.jobs.isEmpty { fail("no readable files under \(options.folders.joined(separator: " "))") }

// The page cache is the script's to warm; this pass only sets up what libraries do lazily (fonts,
// tables, the first TagLib or poppler handle), so each distinct file name is read once.
var seenNames = Set<String>()
let warmUpJobs = files.jobs.filter {
  seenNames.insert(String($0.path.split(separator: "/").last ?? "")).inserted
}
let warmUp = ExtractionPass.run(service: service, jobs: warmUpJobs, workers: options.jobs)
var seconds: [Double] = []
var filesPerSecond: [Double] = []
var megabytesPerSecond: [Double] = []
var passesPerRun: [Int] = []
var tally = warmUp.tally
for _ in 0..<options.runs {
  var elapsed = 0.0
  var passes = 0
  repeat {
    let pass = ExtractionPass.run(service: service, jobs: files.jobs, workers: options.jobs)
    elapsed += pass.seconds
    passes += 1
    tally = pass.tally
  } while elapsed < options.minimumSeconds
  seconds.append(elapsed)
  passesPerRun.append(passes)
  filesPerSecond.append(Double(files.jobs.count * passes) / elapsed)
  megabytesPerSecond.append(Double(files.totalBytes * passes) / 1e6 / elapsed)
}

var report: [String: Any] = [
  "files": files.jobs.count, "bytes": files.totalBytes, "jobs": options.jobs,
  "runs": seconds.map { ($0 * 10000).rounded() / 10000 }, "passesPerRun": passesPerRun,
  "filesPerSecond": RunStatistics(filesPerSecond).json,
  "megabytesPerSecond": RunStatistics(megabytesPerSecond).json,
  "succeeded": tally.succeeded, "failed": tally.failed, "unmatched": tally.unmatched,
  "byExtractor": tally.byExtractor, "peakRSSKiB": peakResidentKilobytes(),
]
report["slowest"] = tally.slowest.map {
  ["path": $0.path, "seconds": ($0.seconds * 10000).rounded() / 10000] as [String: Any]
}
if !tally.failureSamples.isEmpty { report["failureSamples"] = tally.failureSamples }
if !files.unreadable.isEmpty { report["unreadable"] = Array(files.unreadable.prefix(5)) }
let json = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
print(String(decoding: json, as: UTF8.self))
