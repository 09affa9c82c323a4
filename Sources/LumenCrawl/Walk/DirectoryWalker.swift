import Foundation
import Glibc
import LumenExtract
import LumenModel
import Synchronization

/// Walks the roots of a `Scope` on several threads (both cores here), reading folders as raw
/// bytes, stating every entry without following links, and handing each folder's admitted
/// entries to a visitor.
///
/// Memory stays flat: pending folders sit in a bounded `WalkQueue`, a listing lives only while
/// its visit runs, and nothing is collected across folders.
public final class DirectoryWalker: Sendable {
  public struct Options: Sendable, Equatable {
    public var threads: Int
    /// Pending folders shared between threads; beyond it a thread walks its own subfolders.
    public var queueLimit: Int

    public init(threads: Int = ProcessInfo.processInfo.activeProcessorCount, queueLimit: Int = 4096)
    {
      self.threads = max(1, threads)
      self.queueLimit = max(1, queueLimit)
    }
  }

  public let scope: Scope
  public let options: Options
  public let statistics = WalkStatistics()
  private let current = Mutex<WalkQueue?>(nil)

  public init(scope: Scope, options: Options = Options()) {
    self.scope = scope
    self.options = options
  }

  /// Walks every root, or only the folders in `starts` (with what they hold), which must be
  /// in scope: a rescan after lost events. Returns when all threads are done (or `stop()` was
  /// called). `makeVisitor(i)` runs on walk thread `i`.
  public func walk(
    startingAt starts: [String]? = nil,
    makeVisitor: @escaping @Sendable (Int) -> DirectoryVisitor
  ) async {
    let queue = WalkQueue(limit: options.queueLimit)
    current.withLock { $0 = queue }
    var roots: [DirectoryTask] = []
    for folder in starts ?? scope.roots.map(\.path) {
      guard let start = scope.start(at: folder) else { continue }
      let path = Scope.normalize(folder)
      var task = DirectoryTask(
        path: path, systemPath: SystemPath(path),
        rawName: Scope.components(of: path).last ?? [], root: start.root,
        rootDevice: start.parentFrame == nil ? nil : start.root.device,
        parentFrame: start.parentFrame)
      task.isStart = true
      roots.append(task)
    }
    let overflow = queue.offer(roots)
    precondition(overflow.isEmpty || options.queueLimit < roots.count)
    let threads = options.threads
    let remaining = Atomic<Int>(threads)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      for index in 0..<threads {
        let thread = Thread { [self] in
          work(index: index, queue: queue, extra: index == 0 ? overflow : [], makeVisitor)
          if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
            continuation.resume()
          }
        }
        thread.name = "lumen-walk-\(index)"
        thread.start()
      }
    }
    current.withLock { $0 = nil }
  }

  /// Stops the walk: each thread finishes the folder in hand and takes no other.
  public func stop() {
    current.withLock { $0?.stop() }
  }

  private func work(
    index: Int, queue: WalkQueue, extra: [DirectoryTask],
    _ makeVisitor: @Sendable (Int) -> DirectoryVisitor
  ) {
    let visitor = makeVisitor(index)
    var local = Array(extra.reversed())
    var holding = false
    while true {
      let task: DirectoryTask
      if let mine = local.popLast() {
        task = mine
      } else {
        guard let shared = queue.next(finishedPrevious: holding) else { break }
        holding = true
        task = shared
      }
      if queue.wasStopped { break }
      let subfolders = read(task, visitor: visitor)
      local += queue.offer(subfolders).reversed()
      // Give away what this thread holds when the others may be idle.
      if local.count > 1 && queue.hasRoom {
        let given = Array(local[..<(local.count - 1)].reversed())
        local = Array(local[(local.count - 1)...]) + queue.offer(given).reversed()
      }
    }
    visitor.finish()
  }

  /// Reads one folder, hands its listing to the visitor, and returns its subfolders to walk.
  private func read(_ task: DirectoryTask, visitor: DirectoryVisitor) -> [DirectoryTask] {
    let isRoot = task.parentFrame == nil
    let stream: DirectoryStream
    let own: FileStatus
    do {
      stream = try DirectoryStream(path: task.systemPath)
      own = try FileStatus.read(descriptor: stream.descriptor)
    } catch {
      statistics.errors.add(1, ordering: .relaxed)
      visitor.failed(CrawlError(path: task.path, error: error), isRoot: isRoot)
      return []
    }
    let rootDevice = task.rootDevice ?? own.device
    var names: [(name: [UInt8], type: UInt8)] = []
    var hints = DirectoryHints()
    do {
      try stream.forEachEntry { name, type in
        let bytes = Array(UnsafeRawBufferPointer(name))
        hints.note(bytes)
        names.append((bytes, type))
      }
    } catch {
      // A partial listing would read as deletions: report the folder instead.
      statistics.errors.add(1, ordering: .relaxed)
      visitor.failed(CrawlError(path: task.path, error: error), isRoot: isRoot)
      return []
    }
    statistics.folders.add(1, ordering: .relaxed)
    statistics.entries.add(names.count, ordering: .relaxed)
    names.sort { $0.name.lexicographicallyPrecedes($1.name) }

    let frame: ScopeFrame
    if let parent = task.parentFrame {
      frame = scope.childFrame(path: task.path, name: task.rawName, of: parent, hints: hints) {
        name in name.withCString { SmallFile.read(in: stream.descriptor, name: $0) }
      }
    } else {
      frame = scope.frame(forRoot: task.root)
    }

    var entries: [CrawlEntry] = []
    var failures: [CrawlError] = []
    var subfolders: [DirectoryTask] = []
    var excluded = 0
    let prefix = task.path == "/" ? "/" : task.path + "/"
    for (rawName, type) in names {
      let name = FaithfulPath.decode(rawName)
      let path = prefix + name
      var status: FileStatus? = nil
      var kind = FileKind(directoryEntryType: type)
      do {
        if kind == nil {
          status = try stat(rawName, in: stream.descriptor)
          kind = status!.kind
        }
        guard scope.verdict(name: rawName, isDirectory: kind == .directory, in: frame).isIncluded
        else {
          excluded += 1
          continue
        }
        if status == nil { status = try stat(rawName, in: stream.descriptor) }
      } catch {
        failures.append(CrawlError(path: path, error: error))
        continue
      }
      let entry = CrawlEntry(name: name, path: path, status: status!, rawName: rawName)
      if entry.status.kind == .directory {
        if scope.options.oneFileSystem && entry.status.device != rootDevice {
          excluded += 1
          continue
        }
        if hasMarker(rawName, in: stream.descriptor) {
          excluded += 1
          continue
        }
        if let denied = accessDenied(rawName, in: stream.descriptor) {
          failures.append(CrawlError(path: path, error: denied))
          continue
        }
        subfolders.append(
          DirectoryTask(
            path: path, systemPath: task.systemPath.appending(rawName), rawName: rawName,
            root: task.root, rootDevice: rootDevice, parentFrame: frame))
      }
      entries.append(entry)
    }
    statistics.excluded.add(excluded, ordering: .relaxed)
    statistics.errors.add(failures.count, ordering: .relaxed)
    let directory = CrawlEntry(
      name: task.path.split(separator: "/").last.map(String.init) ?? "/", path: task.path,
      status: own, rawName: task.rawName)
    visitor.visit(
      DirectoryListing(
        directory: directory, root: task.root, entries: entries, failures: failures,
        excludedCount: excluded, isRoot: isRoot, isStart: task.isStart,
        descriptor: stream.descriptor))
    return subfolders
  }

  private func stat(_ name: [UInt8], in directory: Int32) throws(SystemCallError) -> FileStatus {
    let result = name.withCString { pointer in
      Result { () throws(SystemCallError) in try FileStatus.read(in: directory, name: pointer) }
    }
    return try result.get()
  }

  private static let markerSuffixes = Scope.markerFileNames.map { Array(("/" + $0).utf8) }

  private func hasMarker(_ folder: [UInt8], in directory: Int32) -> Bool {
    Self.markerSuffixes.contains { suffix in
      (folder + suffix).withCString { faccessat(directory, $0, F_OK, AT_SYMLINK_NOFOLLOW) == 0 }
    }
  }

  /// Whether the running user may list and enter the folder (`AT_EACCESS`: the effective IDs,
  /// which is what `open` will check).
  private func accessDenied(_ folder: [UInt8], in directory: Int32) -> SystemCallError? {
    let result = folder.withCString { faccessat(directory, $0, R_OK | X_OK, AT_EACCESS) }
    guard result != 0 else { return nil }
    let error = SystemCallError("open")
    return error.isPermissionDenied ? error : nil
  }
}

extension Array where Element == UInt8 {
  /// Calls `body` with a NUL-terminated copy of these bytes.
  func withCString<R>(_ body: (UnsafePointer<CChar>) -> R) -> R {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { storage in
      for index in indices { storage[index] = CChar(bitPattern: self[index]) }
      storage[count] = 0
      return body(storage.baseAddress!)
    }
  }
}
