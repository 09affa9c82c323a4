import ArgumentParser
import Dispatch
import Foundation
import LumenCrawl
import LumenExtract
import LumenModel
import LumenStore

/// `lumen index`: crawl folders into the index. Incremental: a second run reads only what
/// changed. Ctrl-C stops after the batch being written; the next run picks up from there.
struct IndexCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "index",
    abstract: "Index folders and what their files carry.",
    discussion: """
      With no PATH, indexes the roots of the config file. Hidden files, git-ignored files and
      folders holding .lumenignore or .nomedia are skipped unless told otherwise.
      """)

  @OptionGroup var index: IndexOptions

  @Option(
    name: .customLong("exclude"),
    help: ArgumentHelp(
      "Skip paths matching this glob (repeatable; gitignore syntax).", valueName: "glob"))
  var excludes: [String] = []

  @Flag(help: "Index dot-files and dot-folders too.")
  var includeHidden = false

  @Flag(help: "Index files that .gitignore or .ignore rules exclude.")
  var noGitignore = false

  @Flag(help: "Do not cross into other file systems below a root.")
  var oneFileSystem = false

  @Flag(help: "Print the summary as one JSON object.")
  var json = false

  @Flag(help: "Read again the files whose extractor crashed, hung or ran out of memory before.")
  var retryFailed = false

  @Argument(help: "Folders to index.")
  var paths: [String] = []

  /// The writer's SQLite page cache during `lumen index`.
  static let writerCacheKiB = 16 << 10

  func run() async throws {
    // glibc gives every thread that contends for the heap an arena, up to eight per core, and
    // each keeps what its thread freed: capping them cuts the peak RSS. One per walk thread and
    // two more (the writer, which frees the records the walk threads allocated, and the
    // workers' readers): with two in all, those frees waited on the walk threads' arena locks
    // (first index of 200,000 files, alternated runs: median 3.43 s with four against 3.62 s
    // with two, +1.5 MB peak RSS).
    ProcessMemory.limitArenas(Int32(ProcessInfo.processInfo.activeProcessorCount + 2))
    let setup = try CrawlSetup.load()
    let config = setup.config
    let rules = setup.rules
    // Roots are resolved once (symbolic links included: the walk itself never follows one).
    let scope: Scope
    do {
      scope = try Scope(
        options: config.scopeOptions(
          roots: paths, extraExcludes: excludes, includeHidden: includeHidden ? true : nil,
          gitignore: noGitignore ? false : nil, oneFileSystem: oneFileSystem ? true : nil))
    } catch {
      printError(error.description)
      throw ExitCode.failure
    }
    let roots = scope.options.roots
    let searchable: SearchableIndex
    do {
      let opened = try SearchableIndex.openRecoveringCorruption(
        location: try index.location(),
        options: .init(
          batchSize: config.batchSize,
          defaultExpiration: TimeInterval(config.expirationDays) * 24 * 3600,
          contentTypes: rules.contentTypes, memoryMapBytes: 0))
      searchable = opened.index
      // A quarter of the store's default page cache for the writer: on bench/extract's
      // 20,000-file home the crawl's peak RSS fell from 162 to 124 MB with no change in CPU
      // time, and a first index of bench/crawl's 200,000 files from 105 MB (32 MiB) to 88 MB,
      // no slower (5.7-6.1 s against 6.1-6.4 s, runs alternated).
      try await searchable.limitWriterCache(kibibytes: Self.writerCacheKiB)
      if let moved = opened.movedAside {
        printError(
          "\(searchable.location.path) was unusable (\(moved.reason)); moved it to \(moved.path) "
            + "and indexing into a new index")
      }
    } catch {
      printError("\(error)")
      throw ExitCode.failure
    }
    let service = ExtractionService(rules: rules.extraction)
    let extraction: any FileExtracting
    let workers: WorkerPoolExtraction?
    if ProcessInfo.processInfo.environment["LUMEN_EXTRACT_IN_PROCESS"] == "1" {
      // For measuring what isolation costs (bench/faults); a crash here ends the crawl.
      extraction = RuleBasedExtraction(service: service)
      workers = nil
    } else {
      do {
        // Started by the first file that needs an extractor: a re-run that finds nothing
        // changed starts no worker.
        let pool = try WorkerPoolExtraction(
          service: service, options: .init(executable: Self.ownExecutable()),
          startingNow: false
        ) { report in
          if let gap = Self.confinementGap(report) {
            printError("extraction workers are not fully confined: \(gap)")
          }
        }
        extraction = pool
        workers = pool
      } catch {
        printError("\(error)")
        throw ExitCode.failure
      }
    }
    defer { workers?.shutdown() }
    let pipeline = IndexingPipeline(
      index: searchable, scope: scope, contentTypes: rules.contentTypes,
      options: .init(
        batchSize: config.batchSize, expirationDays: config.expirationDays,
        extraction: extraction,
        progress: json ? nil : ProgressReporter.forStandardError(),
        retryFailedExtractions: retryFailed))

    let interrupt = InterruptHandler { pipeline.stop() }
    defer { interrupt.cancel() }
    var summary: CrawlSummary
    do {
      summary = try await pipeline.run()
    } catch let error as SearchableIndexError {
      // A full disk or a damaged file: what was committed stays; say so and stop.
      printError("\(error)")
      if case .diskFull = error {
        printError("free some space and run 'lumen index' again to finish")
      }
      throw ExitCode.failure
    }
    summary.workers = workers?.statistics.snapshot
    LastCrawlRecord(finished: Date(), roots: roots, summary: summary)
      .save(forDatabase: searchable.location.path)

    if json {
      print(summary.json())
    } else {
      print(SummaryText(summary: summary, roots: roots).text)
    }
    for failure in summary.errors {
      printError(FaithfulPath.display(failure.description))
    }
    if summary.failed > summary.errors.count {
      printError("… and \(summary.failed - summary.errors.count) more that could not be indexed")
    }
    if summary.extractionFailures > 0 {
      let files = summary.extractionFailures == 1 ? "1 file" : "\(summary.extractionFailures) files"
      printError(
        "\(files) took their extraction worker down; indexed "
          + "without their metadata ('lumen status' lists them, --retry-failed reads them again)")
    }
    if let failure = workers?.startFailure {
      let files = summary.workers.map { "\($0.unstarted) files" } ?? "files"
      printError(
        "\(failure); \(files) indexed without their metadata, to be read by the next run")
      throw ExitCode.failure
    }
    if summary.interrupted { throw ExitCode(130) }
  }

  /// What a worker could not give up although it should have: a refused seccomp filter or
  /// no_new_privs, or a Landlock ruleset the kernel offers but refused. A kernel without
  /// Landlock is not reported on every run (the README says what that leaves open).
  static func confinementGap(_ report: ConfinementReport) -> String? {
    var gaps: [String] = []
    if !report.noNewPrivileges { gaps.append("no_new_privs refused") }
    if report.seccomp != "on" { gaps.append("seccomp \(report.seccomp)") }
    if report.landlockABI > 0 && report.landlock != "read-only" {
      gaps.append("Landlock \(report.landlock)")
    }
    return gaps.isEmpty ? nil : gaps.joined(separator: "; ")
  }

  /// The running `lumen`, which is also the extraction worker.
  static func ownExecutable() -> String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
  }
}

/// The human summary line of a crawl.
struct SummaryText {
  let summary: CrawlSummary
  let roots: [String]

  var text: String {
    let counts = [
      ("added", summary.added), ("updated", summary.updated), ("moved", summary.moved),
      ("removed", summary.removed), ("unchanged", summary.unchanged),
      ("failed", summary.failed),
    ].map { "\($1) \($0)" }.joined(separator: ", ")
    let seconds = String(format: "%.2f", summary.seconds)
    var line = "\(roots.joined(separator: ", ")): \(counts) in \(seconds) s"
    if summary.interrupted { line += " (interrupted: run again to finish)" }
    if summary.resumedInterruptedCrawl { line += " (resumed an interrupted crawl)" }
    return line
  }
}
