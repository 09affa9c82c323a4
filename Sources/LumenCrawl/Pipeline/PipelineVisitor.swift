import Foundation
import Glibc
import LumenExtract
import LumenModel
import LumenStore

/// One crawl thread's side of the pipeline: compares each folder it is handed with the index,
/// reads what changed, and sends the records to the writer. Owns its sniffer (and so its
/// libmagic cookie): not shared between threads.
///
/// Records are sent in chunks of at most `chunkSize`, gathered across folders: a folder of
/// 100,000 files never sits in memory as 100,000 records, and the writer is woken once per
/// chunk rather than once per folder. What a thread holds when it stops is sent by `finish()`.
final class PipelineVisitor: DirectoryVisitor {
  private let context: PipelineContext
  private let sniffer: Sniffer
  private var pending: [FileRecord] = []
  /// The folder whose entries are being processed, open: files are checked and opened relative
  /// to it. Nil outside a listing (the folder a walk starts at, a single path the watcher
  /// reconciles): then by whole path.
  private var openFolder: Int32?
  /// Whether `pending` holds the item of a folder this crawl added. Such a chunk goes to the
  /// writer before the visit returns, that is before the walk lists the folder, so that a
  /// folder's item is committed no later than anything below it (the channel and the writer
  /// keep order). Otherwise another crawl thread could get the folder's files committed while
  /// its item still waited here: a kill in between left files under a folder the index did not
  /// hold, which the next crawl took for new and read again, committed files and all (and, had
  /// the folder been deleted meanwhile, the files would have stayed in the index for good).
  private var holdsNewFolder = false

  static let chunkSize = 128
  /// A chunk is also sent once its records hold this much extracted text.
  static let chunkTextBytes = 4 << 20
  /// Text held by `pending`, counted up to `weighed` records.
  private var pendingTextBytes = 0
  private var weighed = 0

  init(context: PipelineContext) {
    self.context = context
    self.sniffer = Sniffer(registry: context.contentTypes)
  }

  func finish() { flush() }

  private func flush() {
    guard !pending.isEmpty else { return }
    // Laid out in rows here, on the walk thread: the writer is the crawl's one serial stage.
    context.index.draftRows(&pending)
    let weight = pending.reduce(0) { $0 + $1.heldTextBytes }
    context.records.send(pending, weight: weight)
    pending = []
    pendingTextBytes = 0
    weighed = 0
    holdsNewFolder = false
    pending.reserveCapacity(Self.chunkSize)
  }

  /// Whether `pending` should go now: enough records, or enough text in them.
  private var pendingIsFull: Bool {
    while weighed < pending.count {
      pendingTextBytes += pending[weighed].heldTextBytes
      weighed += 1
    }
    return pending.count >= Self.chunkSize || pendingTextBytes >= Self.chunkTextBytes
  }

  func failed(_ error: CrawlError, isRoot: Bool) {
    context.counters.fail(error.path, error.error.message)
    // A folder we may not read is not indexed (and what was indexed goes), nor is one that
    // vanished since it was listed; a root that is gone (unmounted) is left to expire, never
    // deleted.
    if !isRoot && (error.error.isPermissionDenied || error.error.isVanished) {
      postpone(PendingDeletion(path: error.path, isDirectory: true))
    }
  }

  func visit(_ listing: DirectoryListing) {
    let folder = listing.directory.path
    context.currentFolder.withLock { $0 = folder }
    context.state.withLock { $0.folders += 1 }
    var stored: [String: FileEntry] = [:]
    // A folder this crawl added has nothing indexed below it: no need to ask.
    let added = context.newFolders.withLock { $0.remove(folder) != nil }
    let isNew = added && context.newFoldersAreEmpty
    if !isNew {
      do {
        let children = try context.storedListings.children(of: folder)
        stored = Dictionary(children.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
      } catch {
        // Without the index's view nothing can be compared; leave the folder as it is.
        context.counters.fail(folder, "cannot read the index: \(error)")
        return
      }
    }
    if listing.isStart { visitStart(listing, into: &pending) }
    openFolder = listing.descriptor
    // Subfolders the index knows: the walk reads them next, so their listings are fetched now.
    var knownSubfolders: [String] = []
    for entry in listing.entries {
      let known = stored.removeValue(forKey: entry.name)
      process(entry, root: listing.root, stored: known, into: &pending)
      if pendingIsFull { flush() }
      if entry.status.kind == .directory, known?.isDirectory == true {
        knownSubfolders.append(entry.path)
      }
    }
    if holdsNewFolder { flush() }
    openFolder = nil
    context.storedListings.fetchAhead(knownSubfolders)
    for failure in listing.failures {
      context.counters.fail(failure.path, failure.error.message)
      let name = String(failure.path.dropFirst(folder == "/" ? 1 : folder.count + 1))
      guard let known = stored.removeValue(forKey: name) else { continue }
      // Gone or forbidden: its item goes. Any other error (I/O): keep what is indexed.
      if failure.error.isVanished || failure.error.isPermissionDenied {
        postpone(PendingDeletion(path: failure.path, isDirectory: known.isDirectory))
      }
    }
    let prefix = folder == "/" ? "/" : folder + "/"
    for (name, gone) in stored {
      postpone(PendingDeletion(path: prefix + name, isDirectory: gone.isDirectory))
    }
  }

  /// The own item of the folder a walk started at (its parent is not walked), and for a root
  /// its domain's renewal.
  private func visitStart(_ listing: DirectoryListing, into records: inout [FileRecord]) {
    let root = listing.directory.path
    if listing.isRoot {
      do {
        try Blocking.run { [index = context.index, expiration = context.expiration] in
          try await index.renewDomain(FileDomain.identifier(forRoot: root), until: expiration)
        }
      } catch {
        context.counters.fail(root, "cannot renew the root's items: \(error)")
      }
    }
    guard root != "/" else { return }
    let parent = (root as NSString).deletingLastPathComponent
    let stored = try? Blocking.run { [index = context.index] in
      try await index.children(ofDirectory: parent)
    }.first { $0.name == listing.directory.name }
    process(listing.directory, root: listing.root, stored: stored, into: &records)
  }

  /// Compares one entry with its stored item and adds what must be written to `records`
  /// (deletions are postponed into the context; moves found by inode are applied at once).
  func process(
    _ entry: CrawlEntry, root: ScopeRoot, stored: FileEntry?, into records: inout [FileRecord]
  ) {
    let status = entry.status
    switch status.kind {
    case .fifo, .socket, .characterDevice, .blockDevice, .unknown:
      context.counters.fail(entry.path, "not a regular file (\(status.kind.rawValue))")
      if let stored { postpone(PendingDeletion(path: entry.path, isDirectory: stored.isDirectory)) }
      return
    case .regular, .directory, .symbolicLink:
      break
    }
    let stamp = FileItemBuilder.stamp(status)
    let extraction = context.options.extraction
    // Only regular files are extracted; folders and links are current when their stamp is.
    let extractsContent = status.kind == .regular
    if let stored, stored.stamp.device == stamp.device, stored.stamp.inode == stamp.inode {
      let current =
        !extractsContent
        || (extraction.isCurrent(stored.extractor) && !context.retrying.contains(entry.path))
      if stored.stamp == stamp && current {
        context.counters.unchanged.add(1, ordering: .relaxed)
        return
      }
      if sameContent(stored.stamp, stamp) && current {
        // Only the inode changed (chmod, chown, a new hard link): no need to read the file,
        // unless it may no longer be read at all.
        guard mayRead(entry, hadItem: stored) else { return }
        records.append(
          context.builder.attributesUpdate(for: entry, root: root, extractor: stored.extractor))
      } else {
        guard let record = read(entry, root: root, replacing: stored) else { return }
        records.append(record)
      }
      context.counters.updated.add(1, ordering: .relaxed)
      return
    }
    if context.looksForMoves, let moved = movedFile(for: entry) {
      context.beforeMove.withLock { $0 }?()
      do {
        try Blocking.run { [index = context.index, path = entry.path] in
          if moved.entry.isDirectory {
            try await index.moveDirectory(from: moved.path, to: path)
          } else {
            try await index.moveFile(from: moved.path, to: path)
          }
        }
      } catch {
        context.counters.fail(entry.path, "cannot move the item from \(moved.path): \(error)")
        return
      }
      context.counters.moved.add(1, ordering: .relaxed)
      if stored != nil { context.counters.removed.add(1, ordering: .relaxed) }
      if sameContent(moved.entry.stamp, stamp)
        && (!extractsContent || extraction.isCurrent(moved.entry.extractor))
      {
        guard mayRead(entry, hadItem: moved.entry) else { return }
        records.append(
          context.builder.attributesUpdate(
            for: entry, root: root, extractor: moved.entry.extractor))
      } else if let record = read(entry, root: root, replacing: nil) {
        records.append(record)
      }
      return
    }
    guard let record = read(entry, root: root, replacing: stored) else { return }
    records.append(record)
    if stored == nil {
      context.counters.added.add(1, ordering: .relaxed)
      if entry.status.kind == .directory {
        context.newFolders.withLock { _ = $0.insert(entry.path) }
        holdsNewFolder = true
      }
    } else {
      context.counters.updated.add(1, ordering: .relaxed)
    }
  }

  /// The indexed file this entry is, moved: the index knows its (device, inode) at another path,
  /// and that path no longer holds it (else it is a hard link or a copy, and a new item).
  private func movedFile(for entry: CrawlEntry) -> IndexedFile? {
    let status = entry.status
    guard
      let found = try? Blocking.run({ [index = context.index] in
        try await index.files(device: status.device, inode: status.inode)
      })
    else { return nil }
    for candidate in found
    where candidate.path != entry.path
      && candidate.entry.isDirectory == (status.kind == .directory)
    {
      if let there = try? FileStatus.read(path: candidate.path), there.device == status.device,
        there.inode == status.inode
      {
        continue
      }
      return candidate
    }
    return nil
  }

  /// A full record: the file typed (by its name where that settles it, else by its head, read
  /// once) and handed to the extractor. Nil when it cannot be read: counted as failed, and an
  /// item it had is removed (an unreadable file is not indexed).
  private func read(_ entry: CrawlEntry, root: ScopeRoot, replacing stored: FileEntry?)
    -> FileRecord?
  {
    switch entry.status.kind {
    case .directory:
      return context.builder.record(
        for: entry, root: root, type: sniffer.sniff(kind: .directory)!)
    case .symbolicLink:
      return context.builder.record(
        for: entry, root: root, type: sniffer.sniff(kind: .symbolicLink)!,
        linkTarget: linkTarget(entry.path))
    default:
      break
    }
    let type: Sniffer.Result
    let fresh: CrawlEntry
    if let settled = sniffer.sniff(name: entry.name, size: entry.status.size) {
      // Not opened here: the extractor opens it if a rule applies.
      guard mayRead(entry, hadItem: stored) else { return nil }
      type = settled
      fresh = entry
    } else {
      let descriptor = at(entry) { folder, name in
        openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
      }
      guard descriptor >= 0 else {
        let error = SystemCallError("open")
        context.counters.fail(entry.path, error.message)
        if stored != nil { postpone(PendingDeletion(path: entry.path, isDirectory: false)) }
        return nil
      }
      defer { close(descriptor) }
      // The file as opened, in case it changed since the listing.
      let current = (try? FileStatus.read(descriptor: descriptor)) ?? entry.status
      fresh = CrawlEntry(
        name: entry.name, path: entry.path, status: current, rawName: entry.rawName)
      do {
        type = try sniffer.sniff(openFile: descriptor, name: entry.name)
      } catch {
        context.counters.fail(entry.path, error.description)
        return nil
      }
    }
    context.counters.reExtracted.add(1, ordering: .relaxed)
    let extraction = context.options.extraction.extract(
      ExtractionRequest(
        path: entry.path, mimeType: type.mimeType, contentType: type.contentType,
        limits: context.options.limits))
    if extraction?.failure != nil {
      context.counters.extractionFailures.add(1, ordering: .relaxed)
    }
    return context.builder.record(for: fresh, root: root, type: type, extraction: extraction)
  }

  private func linkTarget(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = SystemPath(path).withCString { readlink($0, &buffer, buffer.count - 1) }
    guard count >= 0 else { return nil }
    return FaithfulPath.decode(buffer[..<count].map { UInt8(bitPattern: $0) })
  }

  /// Whether the running user may still read a regular file that is not going to be opened
  /// here (`faccessat` with the effective IDs, as `open` checks). An unreadable file is not
  /// indexed: it fails, and the item it had goes.
  private func mayRead(_ entry: CrawlEntry, hadItem stored: FileEntry?) -> Bool {
    guard entry.status.kind == .regular else { return true }
    let result = at(entry) { folder, name in faccessat(folder, name, R_OK, AT_EACCESS) }
    guard result != 0 else { return true }
    let error = SystemCallError("open")
    context.counters.fail(entry.path, error.message)
    if let stored {
      postpone(PendingDeletion(path: entry.path, isDirectory: stored.isDirectory))
    }
    return false
  }

  /// Calls `body` with where `entry` is: its raw name in the open folder during a listing's
  /// visit, else its whole path from the current directory.
  private func at<R>(_ entry: CrawlEntry, _ body: (Int32, UnsafePointer<CChar>) -> R) -> R {
    if let openFolder { return entry.rawName.withCString { body(openFolder, $0) } }
    return SystemPath(entry.path).withCString { body(AT_FDCWD, $0) }
  }

  private func sameContent(_ old: FileStamp, _ new: FileStamp) -> Bool {
    old.size == new.size && old.modificationNanos == new.modificationNanos
  }

  private func postpone(_ deletion: PendingDeletion) {
    context.deletions.withLock { $0.append(deletion) }
  }
}
