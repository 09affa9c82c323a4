import ArgumentParser
import Foundation
import LumenCrawl
import LumenExtract
import LumenModel
import LumenStore

/// `lumen watch`: an incremental crawl of each root, then inotify until SIGINT or SIGTERM, at
/// idle CPU and I/O priority, holding the index's watcher lock.
struct WatchCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "watch",
    abstract: "Keep the index up to date as files change.",
    discussion: """
      With no PATH, watches the roots of the config file. Crawls each root first, then follows
      changes; SIGINT or SIGTERM commits what is pending and exits 0. One watcher per index.
      """)

  @OptionGroup var index: IndexOptions

  @Flag(help: "Log only errors.")
  var quiet = false

  @Flag(help: "Log every change handled.")
  var verbose = false

  @Flag(
    help: """
      Keep normal CPU and I/O priority (default: idle), e.g. to measure latency on a busy machine.
      """)
  var normalPriority = false

  @Option(
    help: ArgumentHelp(
      "Rescan folders left unwatched (watch limit reached) every this many seconds.",
      valueName: "seconds"))
  var rescanInterval: Double = 300

  @Argument(help: "Folders to watch.")
  var paths: [String] = []

  func validate() throws {
    if quiet && verbose { throw ValidationError("--quiet and --verbose cannot be combined") }
    guard rescanInterval >= 1 else { throw ValidationError("--rescan-interval must be 1 or more") }
  }

  func run() async throws {
    ProcessMemory.limitArenas()
    let logger = LogSetup.bootstrap(quiet: quiet, verbose: verbose)
    let setup = try CrawlSetup.load()
    let config = setup.config
    let rules = setup.rules
    // Resolved as `lumen index` resolves them (symbolic links too), so that both keep the same
    // roots. Roots named here must exist; configured ones may be unmounted for now: they are
    // watched for and crawled when they appear.
    let given = paths.isEmpty ? config.roots : paths
    guard !given.isEmpty else {
      throw ValidationError("give a PATH, or roots in \(Config.defaultPath())")
    }
    var roots: [String] = []
    for root in given {
      let path: String
      do {
        path = try Scope.canonicalRoot(root, relativeTo: FileManager.default.currentDirectoryPath)
      } catch {
        guard paths.isEmpty else {
          printError(error.description)
          throw ExitCode.failure
        }
        path = URL(fileURLWithPath: root).standardizedFileURL.path
      }
      if !roots.contains(path) { roots.append(path) }
    }
    let scope: Scope
    do {
      scope = try Scope(
        options: .init(
          roots: roots, excludes: config.excludeGlobs,
          includeHidden: config.includeHidden, honorIgnoreFiles: config.gitignore,
          oneFileSystem: config.oneFileSystem))
    } catch {
      printError(error.description)
      throw ExitCode.failure
    }
    let location = try index.location()
    let searchable: SearchableIndex
    do {
      let opened = try SearchableIndex.openRecoveringCorruption(
        location: location,
        options: .init(
          batchSize: config.batchSize,
          defaultExpiration: TimeInterval(config.expirationDays) * 24 * 3600,
          contentTypes: rules.contentTypes, memoryMapBytes: 0))
      searchable = opened.index
      // The cache the watcher keeps after its first crawl, from the start: measured on
      // bench/extract's home, 16 MiB costs a crawl no CPU time against 64 MiB, and the first
      // start on an empty index peaked at 154 MB with the larger one (bench/watch.md).
      try await searchable.limitWriterCache(kibibytes: FolderWatcher.Options().writerCacheKiB)
      if let moved = opened.movedAside {
        logger.warning(
          "\(location.path) was unusable (\(moved.reason)); moved it to \(moved.path) and indexing into a new index"
        )
      }
    } catch {
      printError("\(error)")
      throw ExitCode.failure
    }
    let lock: WatcherLock
    do {
      lock = try WatcherLock(databasePath: location.path)
    } catch let held as WatcherLock.Held {
      printError(held.description)
      throw ExitCode.failure
    }
    // Before the crawl starts its threads and extraction workers (they inherit it).
    if !normalPriority {
      for problem in IdlePriority.apply() {
        logger.warning("cannot lower the priority: \(problem)")
      }
    }
    // Extraction runs in worker processes, as for `lumen index`: a hostile file crashes a
    // worker, never the watcher.
    let workers: WorkerPoolExtraction
    do {
      workers = try WorkerPoolExtraction(
        service: ExtractionService(rules: rules.extraction),
        options: .init(executable: IndexCommand.ownExecutable()))
    } catch {
      printError("\(error)")
      throw ExitCode.failure
    }
    defer { workers.shutdown() }
    let pipeline = IndexingPipeline(
      index: searchable, scope: scope, contentTypes: rules.contentTypes,
      options: .init(
        batchSize: config.batchSize, expirationDays: config.expirationDays,
        extraction: workers))
    var options = FolderWatcher.Options()
    options.rescanInterval = .milliseconds(Int64(rescanInterval * 1000))
    options.ignoredPrefixes = [location.path]
    let watcher = FolderWatcher(
      pipeline: pipeline, options: options, logger: logger, lock: lock)
    let interrupt = InterruptHandler(message: nil) {
      logger.info("stopping: committing what is pending (again to quit now)")
      watcher.stop()
    }
    defer {
      interrupt.cancel()
      lock.release()
    }
    do {
      try await watcher.run()
    } catch {
      printError("cannot watch: \(error)")
      throw ExitCode.failure
    }
  }
}
