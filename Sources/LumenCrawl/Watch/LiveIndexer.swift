import Foundation
import Glibc
import LumenModel
import LumenStore
import Synchronization

/// The watcher's writer: brings single paths up to date with the crawl's own comparison
/// (`PipelineVisitor.process`: unchanged stamps are skipped, a content-preserving change
/// rewrites only file-system attributes, a changed file is read once) and collects the result
/// as one ordered list of changes, committed as one transaction when it holds `batchSize`
/// changes or when the watcher says it is old enough.
///
/// Reads of the index see only what is committed, so before looking at a path that has an
/// uncommitted change (or lies under an uncommitted deletion) the batch is committed first;
/// moves, which rewrite paths, always apply after everything before them is committed.
///
/// Used from the watcher's thread only.
final class LiveIndexer: @unchecked Sendable {
  enum Outcome: Equatable {
    /// Nothing to do beyond what was recorded.
    case file
    /// A folder in scope: `isNew` when the index did not have it as a folder (its subtree must
    /// be walked).
    case folder(isNew: Bool)
    /// Gone, out of scope or unreadable: its item (if any) is being deleted.
    case absent
  }

  let pipeline: IndexingPipeline
  private let context: PipelineContext
  private let visitor: PipelineVisitor
  private var changes: [FileChange] = []
  /// Paths with an uncommitted record or deletion, and the deleted ones among them.
  private var touched: Set<String> = []
  private var deleted: Set<String> = []
  private(set) var oldestChange: UInt64?
  /// Changes committed so far, and the last write error.
  private(set) var committed = 0
  private(set) var commits = 0
  let lastError = Mutex<String?>(nil)

  init(pipeline: IndexingPipeline) {
    self.pipeline = pipeline
    context = pipeline.makeContext(started: pipeline.options.clock(), looksForMoves: true)
    visitor = PipelineVisitor(context: context)
    context.beforeMove.withLock { [unowned self] in $0 = { self.commit() } }
  }

  var pendingCount: Int { changes.count }
  var counters: CrawlCounters { context.counters }

  /// Brings the item at `path` up to date with the disk.
  func reconcile(_ path: String) -> Outcome {
    guard let root = pipeline.scope.root(containing: path), path != "/" else { return .absent }
    commitIfTouched(path)
    var stored: FileEntry?
    do {
      stored = try Blocking.run { [index = pipeline.index] in
        try await index.fileEntry(atPath: path)
      }
    } catch {
      fail(path, "cannot read the index: \(error)")
      return .absent
    }
    let status: FileStatus
    do {
      status = try FileStatus.read(path: path)
    } catch {
      if error.isVanished || error.isPermissionDenied {
        if stored != nil { delete(path) }
      } else {
        fail(path, error.message)
      }
      return .absent
    }
    let isDirectory = status.kind == .directory
    let verdict = pipeline.scope.verdict(
      forPath: path, isDirectory: isDirectory, device: status.device)
    guard verdict.isIncluded else {
      if stored != nil { delete(path) }
      return .absent
    }
    if isDirectory, let denied = Self.accessDenied(path) {
      fail(path, denied.message)
      if stored != nil { delete(path) }
      return .absent
    }
    if let known = stored, known.isDirectory, !isDirectory {
      // A folder replaced by a file: what was below it goes first.
      delete(path)
      stored = nil
    }
    let name = PathText.name(of: path)
    let entry = CrawlEntry(
      name: name, path: path, status: status, rawName: FaithfulPath.encode(name))
    var records: [FileRecord] = []
    visitor.process(entry, root: root, stored: stored, into: &records)
    // (A new folder is walked by a run of its own, which asks the index about it.)
    context.newFolders.withLock { $0.removeAll() }
    for deletion in context.deletions.withLock({ list in
      defer { list = [] }; return list
    }) {
      delete(deletion.path)
    }
    for record in records { append(.index(record), path: record.path) }
    if isDirectory { return .folder(isNew: stored?.isDirectory != true) }
    return .file
  }

  /// Whether the index holds an item at `path` (committed).
  func isIndexed(_ path: String) -> Bool {
    commitIfTouched(path)
    let entry = try? Blocking.run { [index = pipeline.index] in
      try await index.fileEntry(atPath: path)
    }
    return entry != nil
  }

  /// Renames an item (a folder with everything below it), keeping its attributes: one update
  /// of the index whatever the number of files below.
  func move(from source: String, to destination: String, isDirectory: Bool) {
    commit()
    do {
      try Blocking.run { [index = pipeline.index] in
        if isDirectory {
          try await index.moveDirectory(from: source, to: destination)
        } else {
          try await index.moveFile(from: source, to: destination)
        }
      }
      context.counters.moved.add(1, ordering: .relaxed)
    } catch {
      fail(destination, "cannot move the item from \(source): \(error)")
    }
  }

  /// Writes what is pending, in order, as one transaction (or a few, past `batchSize`).
  func commit() {
    guard !changes.isEmpty else { return }
    let batch = changes
    changes = []
    touched = []
    deleted = []
    oldestChange = nil
    do {
      try Blocking.run { [index = pipeline.index] in try await index.applyFileChanges(batch) }
      committed += batch.count
      commits += 1
      context.counters.committed.add(batch.count, ordering: .relaxed)
    } catch {
      // The disk is full or the index is locked: these changes are lost, and the watcher's
      // next rescan finds them again.
      lastError.withLock { $0 = "cannot write the index: \(error)" }
    }
  }

  private func delete(_ path: String) {
    append(.delete(path: path), path: path)
    deleted.insert(path)
    context.counters.removed.add(1, ordering: .relaxed)
  }

  private func append(_ change: FileChange, path: String) {
    if oldestChange == nil { oldestChange = Monotonic.now() }
    changes.append(change)
    touched.insert(path)
    if changes.count >= pipeline.options.batchSize { commit() }
  }

  private func commitIfTouched(_ path: String) {
    if touched.contains(path) || underDeletion(path) { commit() }
  }

  /// Whether `path` or a folder above it has an uncommitted deletion.
  private func underDeletion(_ path: String) -> Bool {
    guard !deleted.isEmpty else { return false }
    var current = path
    while true {
      if deleted.contains(current) { return true }
      let parent = PathText.parent(of: current)
      if parent == current { return false }
      current = parent
    }
  }

  private func fail(_ path: String, _ reason: String) {
    context.counters.fail(path, reason)
    lastError.withLock { $0 = "\(path): \(reason)" }
  }

  /// Whether the running user may list and enter the folder, as the walk checks it.
  private static func accessDenied(_ path: String) -> SystemCallError? {
    let result = SystemPath(path).withCString { faccessat(AT_FDCWD, $0, R_OK | X_OK, AT_EACCESS) }
    guard result != 0 else { return nil }
    let error = SystemCallError("open")
    return error.isPermissionDenied ? error : nil
  }
}
