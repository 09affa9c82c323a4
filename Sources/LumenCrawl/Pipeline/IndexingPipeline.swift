import Foundation
import LumenExtract
import LumenModel
import LumenStore
import Synchronization

/// Brings the index up to date with the roots of a `Scope`: the incremental crawl behind
/// `lumen index` (and the watcher's rescans).
///
/// How:
/// 1. The walk reads each folder on the crawl threads and compares it with the index's record of
///    that folder (`children(ofDirectory:)`): an entry whose (device, inode, size, mtime, ctime)
///    and extractor are unchanged is skipped without being opened.
/// 2. A changed or new file is opened once, sniffed and extracted on the same thread; a
///    file that is new at its path but whose (device, inode) the index knows at a path that no
///    longer holds it has moved: the index moves its item (a folder with everything below it)
///    and keeps its attributes.
/// 3. Records go through a bounded channel to one writer, which commits them in transactions of
///    `batchSize` items, each with a client state saying how far the crawl got. An interrupted
///    crawl (Ctrl-C, kill, power loss) leaves whole batches only; the next crawl skips what they
///    hold as unchanged.
/// 4. Deletions wait for the end of the walk, so that a file moved into a folder walked later
///    is found as a move rather than deleted and re-added. A stopped crawl leaves them to the next.
/// 5. A crawl that fills the index (see `bulkLoads(previous:folders:)`) writes without its
///    densest attribute indexes and builds them at the end (`SearchableIndex.beginBulkLoad`);
///    when it extracts nothing, it also leaves full text to one rebuild at the end
///    (`defersFullText`).
/// 6. Walk threads lay records out in rows (`SearchableIndex.draftRows`) before handing them
///    over: the writer is the crawl's one serial stage. A crawl ends with a checkpoint.
public final class IndexingPipeline: Sendable {
  public struct Options: Sendable {
    /// Items per transaction.
    public var batchSize: Int
    /// Items of a root live this long after the last crawl that saw the root.
    public var expirationDays: Int
    public var walk: DirectoryWalker.Options
    public var extraction: any FileExtracting
    public var limits: ExtractionLimits
    /// The progress line; nil for none.
    public var progress: ProgressReporter?
    /// Read again the files whose extraction failed in a worker, although neither they nor
    /// their extractor changed (`lumen index --retry-failed`).
    public var retryFailedExtractions: Bool
    public var clock: @Sendable () -> Date

    public init(
      batchSize: Int = 500, expirationDays: Int = 30,
      walk: DirectoryWalker.Options = DirectoryWalker.Options(),
      extraction: any FileExtracting = SniffOnly(), limits: ExtractionLimits = ExtractionLimits(),
      progress: ProgressReporter? = nil, retryFailedExtractions: Bool = false,
      clock: @escaping @Sendable () -> Date = { Date() }
    ) {
      self.batchSize = max(1, batchSize)
      self.expirationDays = max(1, expirationDays)
      self.walk = walk
      self.extraction = extraction
      self.limits = limits
      self.progress = progress
      self.retryFailedExtractions = retryFailedExtractions
      self.clock = clock
    }
  }

  public let scope: Scope
  public let options: Options
  let index: SearchableIndex
  let contentTypes: ContentTypeRegistry
  private let walker: DirectoryWalker
  private let stopRequested = Atomic<Bool>(false)

  public init(
    index: SearchableIndex, scope: Scope, contentTypes: ContentTypeRegistry,
    options: Options = Options()
  ) {
    self.index = index
    self.scope = scope
    self.contentTypes = contentTypes
    self.options = options
    self.walker = DirectoryWalker(scope: scope, options: options.walk)
  }

  /// Stops after the batch being written: the walk takes no new folder, what was read is
  /// committed, deletions are left for the next crawl. Safe from any thread or signal source.
  public func stop() {
    stopRequested.store(true, ordering: .releasing)
    walker.stop()
  }

  /// Crawls every root of the scope once; with `folders`, only those folders and what they hold
  /// (the watcher's rescan after lost events). A folder given that is gone or now out of scope
  /// loses its items. Only a crawl of every root records its progress as the client state: a
  /// partial one says nothing about whether the index is complete.
  ///
  /// `willList` is called, on the walk's threads, with each folder below the starting ones
  /// before the walk lists it: the watcher puts its watch there first, so that nothing created
  /// after the listing goes unseen.
  public func run(
    startingAt folders: [String]? = nil, willList: (@Sendable (String) -> Void)? = nil
  ) async throws -> CrawlSummary {
    let started = options.clock()
    let previous = CrawlState.decode(try await index.fetchLastClientState())
    let retrying =
      options.retryFailedExtractions
      ? Set(try await index.failedExtractions().map(\.path)) : []
    let context = makeContext(
      started: started, looksForMoves: previous != nil, retrying: retrying,
      resuming: previous.map { !$0.complete } ?? false)
    context.recordsState = folders == nil
    let statistics = walker.statistics
    options.progress?.start { [clock = options.clock] in
      ProgressReporter.Snapshot(
        filesSeen: statistics.entries.load(ordering: .relaxed),
        errors: context.counters.failed.load(ordering: .relaxed),
        currentFolder: context.currentFolder.withLock { $0 },
        elapsedSeconds: clock().timeIntervalSince(started))
    }
    defer { options.progress?.stop() }

    for folder in folders ?? [] where scope.start(at: folder) == nil {
      context.deletions.withLock {
        $0.append(PendingDeletion(path: Scope.normalize(folder), isDirectory: true))
      }
    }

    let bulkLoading =
      Self.bulkLoads(previous: previous, folders: folders)
      ? try await index.beginBulkLoad(
        deferringFullText: Self.defersFullText(options.extraction)) : false
    let writer = BatchWriter(context: context, walker: walker, statistics: statistics)
    let writing = writer.start()
    await walker.walk(startingAt: folders) { _ in
      let visitor = PipelineVisitor(context: context)
      guard let willList else { return visitor }
      return ListingAnnouncer(visitor, willList: willList)
    }
    context.records.close()
    let interrupted: Bool
    do {
      try await writing.value
      interrupted = stopRequested.load(ordering: .acquiring)
      if !interrupted {
        try await writer.finish()
      }
    } catch {
      // What was committed stays; its indexes are created now if the disk allows, else by
      // the next writable open.
      if bulkLoading { try? await writer.finishBulkLoad() }
      throw error
    }
    // Also after a stop: queries should not scan until the next crawl.
    if bulkLoading { try await writer.finishBulkLoad() }
    if context.counters.committed.load(ordering: .relaxed) > 0 || bulkLoading {
      // Everything is committed already; a checkpoint that fails (a busy or full disk) only
      // leaves pages in the log, so it never fails the crawl.
      try? await index.checkpoint()
    }
    var summary = CrawlSummary()
    context.counters.fill(&summary)
    summary.folders = statistics.folders.load(ordering: .relaxed)
    summary.excluded = statistics.excluded.load(ordering: .relaxed)
    summary.resumedInterruptedCrawl = previous.map { !$0.complete } ?? false
    summary.interrupted = interrupted
    summary.seconds = options.clock().timeIntervalSince(started)
    return summary
  }

  /// Whether a first crawl leaves full text to be rebuilt at its end. Only when no file is
  /// extracted: the writer is then the crawl's bottleneck, and one rebuild costs less than
  /// keeping the full-text tables current batch by batch. An extracting crawl waits on its
  /// workers while the writer has time to spare, and the rebuild would be a second of one
  /// busy core at the end (bench/crawl's 20,000-file tree, extracted: 5.32–5.39 s keeping
  /// full text current against 5.53–5.54 s deferring it). Searches during such a crawl are
  /// ranked, too.
  static func defersFullText(_ extraction: any FileExtracting) -> Bool {
    !extraction.readsFiles
  }

  /// Whether a crawl bulk loads: when it crawls every root and no crawl of this index has
  /// completed yet (the first, or the resumption of an interrupted first). Such a crawl adds
  /// nearly everything it finds, so dropping the secondary indexes and sorting them once at
  /// the end costs far less than inserting each key at random (bench/crawl). A later crawl
  /// changes a small part of what the index holds, and rebuilding whole indexes for it would
  /// cost more than its inserts; a rescan of some folders (the watcher's) is small too.
  static func bulkLoads(previous: CrawlState?, folders: [String]?) -> Bool {
    folders == nil && !(previous?.complete ?? false)
  }

  /// What the crawl threads and the writer share, for a crawl starting now.
  func makeContext(
    started: Date, looksForMoves: Bool, retrying: Set<String> = [], resuming: Bool = false
  ) -> PipelineContext {
    PipelineContext(
      index: index, scope: scope,
      builder: FileItemBuilder(contentTypes: contentTypes, owners: OwnerNames()),
      contentTypes: contentTypes, options: options,
      state: CrawlState(
        started: Int64(started.timeIntervalSince1970), complete: false, items: 0, folders: 0),
      looksForMoves: looksForMoves, retrying: retrying,
      expiration: started.addingTimeInterval(Double(options.expirationDays) * 86_400),
      newFoldersAreEmpty: !resuming)
  }
}
