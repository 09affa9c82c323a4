import Foundation
import LumenModel
import LumenQuery
import LumenStore

/// `QueryBench`: builds an index of a million realistic items (see `Corpus`) and prints
/// write throughput, bytes per item, and the latency of the first 100 results and of the count
/// for each kind of query, as min / median / max over repeated runs. Run by bench/query.
///
///     QueryBench [--items N] [--runs N] [--batch N] [--db PATH] [--reuse] [--names FILE]
///                     [--explain]   (with --reuse: print each query's SQL and plan)
///                     [--only LABEL-OR-QUERY]   (one listed query, or any query text)
///                     [--bulk]   (build as a first crawl does: `beginBulkLoad`, rows drafted
///                                 before each call, `endBulkLoad`, all of it timed)
@main
struct QueryBench {
  static func main() async throws {
    let arguments = Arguments(CommandLine.arguments.dropFirst())
    let itemCount = arguments.int("--items") ?? 1_000_000
    let runs = arguments.int("--runs") ?? 15
    let path = arguments.string("--db") ?? NSTemporaryDirectory() + "lumen-bench-query.sqlite"
    let location = IndexLocation(path: path)
    let reuse = arguments.flag("--reuse") && location.exists

    if !reuse {
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: path + suffix)
      }
      try await build(
        location, itemCount: itemCount, batchSize: arguments.int("--batch") ?? 500,
        namesFile: arguments.string("--names"), bulk: arguments.flag("--bulk"))
    }
    let index = try SearchableIndex(location: location, options: .init(sweepsOnOpen: false))
    if arguments.flag("--explain") {
      let parser = QueryParser(registry: index.registry)
      for (label, text) in queries {
        let (sql, plan) = try await index.explain(try parser.parse(text))
        print("\(label): \(text)\n  \(sql)\n    " + plan.joined(separator: "\n    "))
      }
      return
    }
    try await report(index, runs: runs, only: arguments.string("--only"))
  }

  // MARK: Writing

  static func build(
    _ location: IndexLocation, itemCount: Int, batchSize: Int, namesFile: String?, bulk: Bool
  ) async throws {
    let index = try SearchableIndex(location: location, options: .init(batchSize: batchSize))
    try await index.renewDomain("files", until: Date().addingTimeInterval(30 * 86_400))
    var corpus = Corpus(seed: 42)
    var files: [FileRecord] = []
    var messages: [SearchableItem] = []
    var names = namesFile.map { _ in [String]() }
    let slice = max(itemCount / 10, 1)
    var sliceSeconds = 0.0
    var sliceRates: [Double] = []
    var totalSeconds = 0.0
    var cpuSeconds = 0.0
    let batch = index.options.batchSize
    if bulk {
      let start = DispatchTime.now()
      let cpu = processCPUSeconds()
      _ = try await index.beginBulkLoad()
      sliceSeconds += seconds(since: start)
      cpuSeconds += processCPUSeconds() - cpu
    }

    func flush(force: Bool) async throws {
      if files.count >= batch || (force && !files.isEmpty) {
        var records = files
        files = []
        let start = DispatchTime.now()
        let cpu = processCPUSeconds()
        if bulk { index.draftRows(&records) }
        try await index.indexFiles(records)
        sliceSeconds += seconds(since: start)
        cpuSeconds += processCPUSeconds() - cpu
      }
      if messages.count >= batch || (force && !messages.isEmpty) {
        let items = messages
        messages = []
        let start = DispatchTime.now()
        let cpu = processCPUSeconds()
        try await index.indexSearchableItems(items)
        sliceSeconds += seconds(since: start)
        cpuSeconds += processCPUSeconds() - cpu
      }
    }

    var endSeconds = 0.0
    for number in 1...itemCount {
      switch corpus.next() {
      case .file(let record):
        files.append(record)
        names?.append(record.path)
      case .message(let item): messages.append(item)
      }
      try await flush(force: false)
      if number % slice == 0 || number == itemCount {
        try await flush(force: true)
        if bulk && number == itemCount {
          let start = DispatchTime.now()
          let cpu = processCPUSeconds()
          try await index.endBulkLoad()
          try await index.checkpoint()
          endSeconds = seconds(since: start)
          sliceSeconds += endSeconds
          cpuSeconds += processCPUSeconds() - cpu
        }
        sliceRates.append(Double(slice) / sliceSeconds)
        totalSeconds += sliceSeconds
        sliceSeconds = 0
      }
    }
    print(
      "Wrote \(itemCount) items in \(format(totalSeconds)) s of index calls "
        + "(\(format(cpuSeconds)) s CPU: \(Int(Double(itemCount) / cpuSeconds)) items per CPU-second; "
        + "batch size \(batch)\(bulk ? "; bulk load" : ""))")
    if bulk {
      print(
        "  of which the bulk load's end (indexes and full text built, log copied): "
          + "\(format(endSeconds)) s, in the last slice")
    }
    print(
      "  items/s per \(slice)-item slice: "
        + summary(sliceRates, unit: "", digits: 0)
        + "  overall \(Int(Double(itemCount) / totalSeconds))")
    if let namesFile, let names {
      try names.joined(separator: "\n").appending("\n").write(
        toFile: namesFile, atomically: false, encoding: .utf8)
    }
  }

  // MARK: Reading

  static let queries: [(String, String)] = [
    ("exact attribute", "kMDItemFSName == 'Invoice-48213.pdf'"),
    ("exact attribute (multi-valued)", "authors == 'Grace Hopper'"),
    ("numeric range", "fileSize > 150000000"),
    ("numeric range (broad)", "kMDItemFSSize > 1000000 && kMDItemFSSize < 2000000"),
    (
      "InRange on dates",
      "InRange(contentModificationDate, $time.iso('2021-03-01T00:00:00Z'), $time.iso('2021-03-31T00:00:00Z'))"
    ),
    ("c/d text", "kMDItemFSName == 'resume*'cd"),
    ("c/d text (title)", "title == 'quarterly report*'cd"),
    ("prefix wildcard", "fileName == 'IMG_12*'"),
    ("*-substring on names", "kMDItemFSName == '*port*'"),
    ("*-substring on names, c", "fileName == '*budget*'c"),
    ("free text", "budget report"),
    ("free text (one word)", "zürich"),
    ("content-type tree", "contentTypeTree == 'public.image'"),
    (
      "content-type tree (narrow)",
      "kMDItemContentTypeTree == 'public.source-code' && fileSize < 1000"
    ),
    (
      "&& / || mix",
      "(contentTypeTree == 'public.image' && pixelWidth > 4000) || (fileName == '*invoice*'cd && fileSize > 4000000)"
    ),
    (
      "&& / || mix (words)",
      "(authorNames == 'Tim'wc || authorNames == 'Steve'wc) && InRange(contentCreationDate, $time.iso('2020-01-01'), $time.iso('2021-01-01'))"
    ),
    ("* attribute (Apple's example)", "* == 'budget*'cd"),
  ]

  static func report(_ index: SearchableIndex, runs: Int, only: String?) async throws {
    if only == nil { try await printSize(index) }
    let queries =
      only.map { only in
        let all = Self.queries
        return all.contains { $0.0 == only } ? all.filter { $0.0 == only } : [("query", only)]
      } ?? Self.queries
    let parser = QueryParser(registry: index.registry)
    print("\nLatency in ms over \(runs) runs (after one warm-up): min / median / max")
    print(
      "(count CPU: this process's CPU time per count, median; on a loaded machine the wall-clock"
        + " figures also hold other processes' turns)")
    print(
      pad("query", 34) + pad("first 100", 26) + pad("count", 26) + pad("count CPU", 11) + "matches")
    var worst: [(String, Double, Double, Double)] = []
    for (label, text) in queries {
      let query = try parser.parse(text)
      _ = try await index.search(query, options: SearchOptions(limit: 100))
      let total = try await index.count(query)
      var firsts: [Double] = []
      var counts: [Double] = []
      var countCPU: [Double] = []
      for _ in 0..<runs {
        var start = DispatchTime.now()
        _ = try await index.search(query, options: SearchOptions(limit: 100))
        firsts.append(seconds(since: start) * 1000)
        start = DispatchTime.now()
        let cpu = processCPUSeconds()
        _ = try await index.count(query)
        counts.append(seconds(since: start) * 1000)
        countCPU.append((processCPUSeconds() - cpu) * 1000)
      }
      print(
        pad(label, 34) + pad(summary(firsts, unit: "", digits: 2), 26)
          + pad(summary(counts, unit: "", digits: 1), 26)
          + pad(String(format: "%.0f", median(countCPU)), 11) + "\(total)")
      worst.append((label, median(firsts), firsts.max() ?? 0, median(counts)))
    }
    print("\n  query text:")
    for (label, text) in queries { print("  \(pad(label, 32)) \(text)") }
    let misses = worst.filter { $0.1 > 10 || $0.2 > 50 || $0.3 > 100 }
    print(
      misses.isEmpty
        ? "\nAll queries within targets (≤10 ms median, ≤50 ms worst first-100; ≤100 ms count)."
        : "\nOver target: "
          + misses.map {
            "\($0.0) (median \(format($0.1)) ms, worst \(format($0.2)) ms, count \(format($0.3)) ms)"
          }.joined(separator: "; "))
  }

  static func printSize(_ index: SearchableIndex) async throws {
    let stats = try await index.statistics()
    let tables = try await index.tableSizes()
    let fullText = tables.filter {
      $0.key.hasPrefix("item_text") || $0.key.hasPrefix("item_fts")
        || $0.key.hasPrefix("item_trigram")
    }
    .values.reduce(0, +)
    let total = tables.values.reduce(0, +)
    let items = Double(stats.itemCount)
    print(
      "\nIndex: \(stats.itemCount) items, \(format(Double(stats.bytesOnDisk) / 1e6)) MB on disk")
    print("  bytes/item, all:                \(Int(Double(total) / items))")
    print("  bytes/item, before full text:   \(Int(Double(total - fullText) / items))")
    print(
      "  bytes/item, full text (FTS5 words + trigram + their text): \(Int(Double(fullText) / items))"
    )
    print("  largest tables and indexes (bytes/item):")
    for (name, bytes) in tables.sorted(by: { $0.value > $1.value }).prefix(14) {
      print("    \(pad(name, 36)) \(format(Double(bytes) / items))")
    }
  }
}

// MARK: Helpers

/// User + system CPU time of the process: on a shared machine, wall time also counts the other
/// processes' turns.
func processCPUSeconds() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
    + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

func seconds(since start: DispatchTime) -> Double {
  Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

func summary(_ values: [Double], unit: String, digits: Int) -> String {
  let sorted = values.sorted()
  guard let low = sorted.first, let high = sorted.last else { return "-" }
  let f = { (v: Double) in String(format: "%.\(digits)f", v) }
  return "\(f(low)) / \(f(median(values))) / \(f(high))\(unit)"
}

func format(_ value: Double) -> String { String(format: "%.1f", value) }

func pad(_ text: String, _ width: Int) -> String {
  text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}

struct Arguments {
  let list: [String]
  init(_ list: ArraySlice<String>) { self.list = Array(list) }
  func string(_ name: String) -> String? {
    guard let i = list.firstIndex(of: name), i + 1 < list.count else { return nil }
    return list[i + 1]
  }
  func int(_ name: String) -> Int? { string(name).flatMap { Int($0) } }
  func flag(_ name: String) -> Bool { list.contains(name) }
}
