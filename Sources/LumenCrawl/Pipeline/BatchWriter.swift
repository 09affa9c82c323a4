import Foundation
import LumenStore
import Synchronization

/// The one writer of a crawl: takes the records the crawl threads send, commits them in
/// transactions of `batchSize` items with the crawl's client state, and at the end applies the
/// deferred deletions and marks the crawl complete.
///
/// A failed write (disk full, a locked index) stops the walk and is rethrown by `run()`; what
/// was committed before stays, and the next crawl resumes after it.
final class BatchWriter: Sendable {
  private let context: PipelineContext
  private let walker: DirectoryWalker
  private let statistics: WalkStatistics
  private let failure = Mutex<(any Error)?>(nil)

  init(context: PipelineContext, walker: DirectoryWalker, statistics: WalkStatistics) {
    self.context = context
    self.walker = walker
    self.statistics = statistics
  }

  /// Starts writing on a thread of its own; the task ends when the channel is closed and
  /// drained, throwing the first write error.
  func start() -> Task<Void, any Error> {
    let done = AsyncThrowingStream<Void, any Error>.makeStream()
    let thread = Thread { [self] in
      drain()
      if let error = failure.withLock({ $0 }) {
        done.continuation.finish(throwing: error)
      } else {
        done.continuation.finish()
      }
    }
    thread.name = "lumen-writer"
    thread.start()
    return Task {
      for try await _ in done.stream {}
    }
  }

  /// A batch is committed early, with fewer than `batchSize` items, once its records hold this
  /// much extracted text: 500 bodies of a megabyte each are not held at once.
  static let batchTextBytes = PipelineContext.recordTextBytes

  private func drain() {
    let batchSize = context.options.batchSize
    var pending: [FileRecord] = []
    var pendingTextBytes = 0
    while let (records, weight) = context.records.receiveWeighed() {
      // After a failure keep receiving, so that no crawl thread blocks on a full channel.
      guard failure.withLock({ $0 == nil }) else { continue }
      if pending.isEmpty { pending = records } else { pending += records }
      pendingTextBytes += weight
      while pending.count >= batchSize {
        // Only the records past the batch are copied: a batch goes to the index as it is.
        let rest = Array(pending[batchSize...])
        pending.removeSubrange(batchSize...)
        commit(pending)
        pending = rest
        pendingTextBytes = rest.reduce(0) { $0 + $1.heldTextBytes }
      }
      if pendingTextBytes >= Self.batchTextBytes {
        commit(pending)
        pending = []
        pendingTextBytes = 0
      }
    }
    if !pending.isEmpty && failure.withLock({ $0 == nil }) { commit(pending) }
  }

  private func commit(_ batch: [FileRecord]) {
    let recordsState = context.recordsState
    let state = context.state.withLock { state -> Data in
      state.items += batch.count
      state.folders = statistics.folders.load(ordering: .relaxed)
      return state.encoded()
    }
    do {
      try context.index.indexFilesNow(batch, clientState: recordsState ? state : nil)
      context.counters.committed.add(batch.count, ordering: .relaxed)
    } catch {
      failure.withLock { if $0 == nil { $0 = error } }
      walker.stop()
    }
  }

  /// Deletes what the walk found gone (parents before what they hold, each subtree once) and
  /// records the crawl as complete. An item a move has claimed since is no longer at its path
  /// and is neither deleted nor counted.
  func finish() async throws {
    let deletions = context.deletions.withLock { $0 }.sorted { $0.path < $1.path }
    var deletedFolders: [String] = []
    var listings: [String: Set<String>] = [:]
    for deletion in deletions {
      if let last = deletedFolders.last, deletion.path.hasPrefix(last + "/") { continue }
      let parent = (deletion.path as NSString).deletingLastPathComponent
      if listings[parent] == nil {
        listings[parent] = Set(try await context.index.children(ofDirectory: parent).map(\.name))
      }
      guard listings[parent]!.contains((deletion.path as NSString).lastPathComponent) else {
        continue
      }
      let removed = deletion.isDirectory ? try await countFiles(under: deletion.path) : 1
      try await context.index.deleteFiles(underPath: deletion.path)
      context.counters.removed.add(removed, ordering: .relaxed)
      if deletion.isDirectory { deletedFolders.append(deletion.path) }
    }
    guard context.recordsState else { return }
    let state = context.state.withLock { state -> Data in
      state.complete = true
      state.folders = statistics.folders.load(ordering: .relaxed)
      return state.encoded()
    }
    try await context.index.indexFiles([], clientState: state)
  }

  /// Creates the indexes a bulk load deferred, in one pass each (after the last batch, and
  /// after `finish`, so that the deletions did not have to maintain them either).
  func finishBulkLoad() async throws {
    try await context.index.endBulkLoad()
  }

  /// The folder's own item and every item below it, for the summary. Deleted folders are rare
  /// and a folder listing is one index range read.
  private func countFiles(under folder: String) async throws -> Int {
    var count = 1
    var pending = [folder]
    while let next = pending.popLast() {
      for child in try await context.index.children(ofDirectory: next) {
        count += 1
        if child.isDirectory { pending.append(next + "/" + child.name) }
      }
    }
    return count
  }
}
