import ArgumentParser
import Foundation
import LumenCrawl
import LumenModel
import LumenStore

/// `lumen status`: what is in an index and how fresh it is.
struct StatusCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "status",
    abstract: "Show roots, counts, size, expired items, failed extractions.")

  @OptionGroup var index: IndexOptions

  @Flag(help: "Print one JSON object.")
  var json = false

  func run() async throws {
    let location = try index.location()
    guard FileManager.default.fileExists(atPath: location.path) else {
      printError("no index at \(location.path); create one with 'lumen index PATH'")
      throw ExitCode.failure
    }
    let searchable = try SearchableIndex(location: location, options: IndexOptions.reading)
    let statistics = try await searchable.statistics()
    let failures = try await searchable.failedExtractions()
    let expirationDays = (try? Config.load().expirationDays) ?? 30
    let roots = StatusRoots(statistics: statistics, expirationDays: expirationDays)
    let watcher = WatcherLock.holder(databasePath: location.path).map(WatcherReport.init)
    let deferredIndexes = try await searchable.deferredIndexes()
    let fullTextBehind = try await searchable.isFullTextDeferred()
    let building = !deferredIndexes.isEmpty || fullTextBehind
    if json {
      var object: [(String, JSONValue)] = [
        ("index", .string(statistics.path)),
        ("items", .number(Double(statistics.itemCount))),
        ("fileItems", .number(Double(statistics.fileItemCount))),
        ("expiredItems", .number(Double(statistics.expiredItemCount))),
        ("bytesOnDisk", .number(Double(statistics.bytesOnDisk))),
        ("customKeys", .number(Double(statistics.customKeyCount))),
      ]
      object.append(
        (
          "roots",
          .array(
            roots.rows.map { row in
              .object([
                ("path", .string(row.path)), ("items", .number(Double(row.items))),
                ("lastCrawled", row.lastCrawled.map { .string(ISO8601Dates.format($0)) } ?? .null),
              ])
            })
        ))
      object.append(
        (
          "failedExtractions",
          .array(
            failures.map { failure in
              .object([
                ("path", .string(FaithfulPath.display(failure.path))),
                ("extractor", .string(failure.extractor.name)),
                ("extractorVersion", .number(Double(failure.extractor.version))),
                ("reason", .string(failure.reason)),
                ("date", .string(ISO8601Dates.format(failure.date))),
              ])
            })
        ))
      if let last = LastCrawlRecord.load(forDatabase: location.path) {
        object.append(
          (
            "lastIndex",
            .object([
              ("finished", .string(ISO8601Dates.format(last.finished))),
              ("roots", .array(last.roots.map { .string(FaithfulPath.display($0)) })),
              ("failed", .number(Double(last.summary.failed))),
              (
                "errors",
                .array(
                  last.summary.errors.map {
                    .object([
                      ("path", .string(FaithfulPath.display($0.path))),
                      ("reason", .string($0.reason)),
                    ])
                  })
              ),
            ])
          ))
      }
      object.append(("contentTypes", counts(statistics.itemsByContentType)))
      object.append(("domains", counts(statistics.itemsByDomain)))
      object.append(("watcher", watcher.map(WatcherReport.json) ?? .null))
      object.append(
        (
          "bulkLoad",
          building
            ? .object([
              ("deferredIndexes", .array(deferredIndexes.map { .string($0) })),
              ("fullTextBehind", .bool(fullTextBehind)),
            ]) : .null
        ))
      print(JSONValue.object(object).line())
      return
    }
    print("Index:         \(statistics.path)")
    print(
      "Size on disk:  \(ByteCountFormatter.string(fromByteCount: statistics.bytesOnDisk, countStyle: .file))"
    )
    print("Items:         \(statistics.itemCount) (\(statistics.fileItemCount) files)")
    print("Expired:       \(statistics.expiredItemCount) waiting for the sweep")
    print("Failed:        \(failures.count) files whose extractor took its worker down")
    if building {
      // A first crawl under way, or one that was killed (the next writable open finishes it).
      let parts =
        (deferredIndexes.isEmpty ? [] : ["\(deferredIndexes.count) attribute indexes"])
        + (fullTextBehind ? ["the full-text tables"] : [])
      print(
        "Building:      \(parts.joined(separator: " and ")), at the end of the first crawl; "
          + "queries scan and do not rank until then")
    }
    if !failures.isEmpty {
      print("\nFailed extractions (not read again until they change; lumen index --retry-failed):")
      for failure in failures {
        print(
          FaithfulPath.display(
            "  \(failure.path)  \(failure.extractor.name) \(failure.extractor.version), "
              + "\(ISO8601Dates.format(failure.date)): \(failure.reason)"))
      }
    }
    if !roots.rows.isEmpty {
      print("\nRoots:")
      for row in roots.rows {
        let when = row.lastCrawled.map { ISO8601Dates.format($0) } ?? "never"
        print("  \(row.path)  \(row.items) items, last crawled \(when)")
      }
    }
    if let watcher {
      print("")
      for line in watcher.lines { print(line) }
    }
    if let last = LastCrawlRecord.load(forDatabase: location.path) {
      print("\nLast index:    \(ISO8601Dates.format(last.finished)), \(last.summary.failed) failed")
      for failure in last.summary.errors.prefix(10) {
        print("  \(FaithfulPath.display(failure.path)): \(failure.reason)")
      }
      if last.summary.failed > 10 { print("  … \(last.summary.failed - 10) more") }
    }
    if !statistics.itemsByContentType.isEmpty {
      print("\nBy content type:")
      for (type, count) in sorted(statistics.itemsByContentType) {
        print("  \(type.isEmpty ? "(none)" : type)  \(count)")
      }
    }
    let otherDomains = statistics.itemsByDomain.filter {
      FileDomain.root(fromIdentifier: $0.key) == nil
    }
    if !otherDomains.isEmpty {
      print("\nOther domains:")
      for (domain, count) in sorted(otherDomains) {
        print("  \(domain.isEmpty ? "(none)" : domain)  \(count)")
      }
    }
  }

  private func sorted(_ counts: [String: Int]) -> [(String, Int)] {
    counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
  }

  private func counts(_ counts: [String: Int]) -> JSONValue {
    .object(sorted(counts).map { ($0.0, JSONValue.number(Double($0.1))) })
  }
}

/// The crawled roots of an index, from its file domains. A crawl renews its root's domain to
/// "now + expiration days", so the last crawl is that date less the configured days.
struct StatusRoots {
  struct Row {
    let path: String
    let items: Int
    let lastCrawled: Date?
  }

  let rows: [Row]

  init(statistics: IndexStatistics, expirationDays: Int) {
    rows = statistics.itemsByDomain.compactMap { domain, count in
      guard let root = FileDomain.root(fromIdentifier: domain) else { return nil }
      let renewed = statistics.domainExpirations[domain].map {
        $0.addingTimeInterval(-Double(expirationDays) * 24 * 3600)
      }
      return Row(path: root, items: count, lastCrawled: renewed)
    }.sorted { $0.path < $1.path }
  }
}
