import LumenModel

/// From inotify events to scheduled work. Nothing is read or written here: each event only says
/// which paths to look at, and when.
extension WatchSession {
  /// Names whose creation, change or removal changes the scope rules of their folder.
  static let ruleFiles: Set<[UInt8]> = Set(
    ([".gitignore", ".ignore", ".git"] + Scope.markerFileNames).map { Array($0.utf8) })

  func handle(_ events: [InotifyEvent]) {
    let now = Monotonic.now()
    for event in events {
      if event.mask.contains(.queueOverflow) {
        overflowed = true
        continue
      }
      guard let folder = table.path(of: event.watch) else { continue }
      if event.mask.contains(.ignored) {
        table.forget(watch: event.watch)
        continue
      }
      if event.name.isEmpty {
        handleSelf(event, folder: folder, now: now)
        continue
      }
      let path = PathText.join(folder, FaithfulPath.decode(event.name))
      if isIgnored(path) { continue }
      let mask = event.mask
      let isDirectory = mask.contains(.isDirectory)
      if logger.logLevel <= .trace {
        logger.trace("event \(mask) \(FaithfulPath.display(path)) cookie=\(event.cookie)")
      }
      if Self.ruleFiles.contains(event.name),
        !mask.intersection([.create, .delete, .closeWrite, .movedFrom, .movedTo, .modify]).isEmpty
      {
        // The rules of this folder changed: everything below it is judged again.
        scope.forgetCachedRules(under: folder)
        schedule.schedule(folder, at: now, scan: true)
      }
      if mask.contains(.movedFrom) {
        pairing.depart(
          cookie: event.cookie,
          MovePairing.Departure(path: path, isDirectory: isDirectory, time: now))
      } else if mask.contains(.movedTo) {
        if let departure = pairing.arrive(cookie: event.cookie) {
          moved(departure, to: path, now: now)
        } else {
          // Moved in from outside the watched folders: new.
          schedule.schedule(path, at: now, scan: isDirectory)
          entriesChanged(in: folder, now: now)
        }
      } else if mask.contains(.create) {
        schedule.schedule(
          path, at: isDirectory ? now : now + Monotonic.nanos(options.createSettle),
          scan: isDirectory)
        entriesChanged(in: folder, now: now)
      } else if mask.contains(.delete) {
        schedule.schedule(path, at: now)
        entriesChanged(in: folder, now: now)
      } else if mask.contains(.closeWrite) {
        written(path, now: now)
      } else if mask.contains(.modify) {
        // Written but still open: wait for the close, or for a while (a log kept open).
        if hot.isHot(path, now: now) {
          written(path, now: now)
        } else {
          schedule.schedule(path, at: now + Monotonic.nanos(options.modifySettle))
          contentWrites.insert(path)
        }
      } else if mask.contains(.attrib) {
        schedule.schedule(path, at: now)
      }
    }
  }

  /// An event about a watched folder itself. Its parent's watch reports the same change under
  /// the folder's name, except for a root (whose parent is not watched) and an unmount.
  private func handleSelf(_ event: InotifyEvent, folder: String, now: UInt64) {
    let isRoot = scope.roots.contains { $0.path == folder }
    if isRoot, !event.mask.intersection([.deleteSelf, .moveSelf, .unmount]).isEmpty {
      rootGone(folder)
    } else if isRoot, event.mask.contains(.attrib) {
      schedule.schedule(folder, at: now)
    } else if event.mask.contains(.unmount) {
      // A file system mounted below a root went away: the folder shows what is under it now.
      schedule.schedule(folder, at: now, scan: true)
    }
  }

  /// New content at `path` (closed after writing, or renamed over it): read now, or after the
  /// burst when the file is hot.
  private func written(_ path: String, now: UInt64) {
    let due = hot.due(path, now: now)
    if due > now { schedule.reschedule(path, at: due) } else { schedule.schedule(path, at: due) }
    contentWrites.insert(path)
  }

  /// A folder's entries changed, so its own item (its mtime) will too.
  private func entriesChanged(in folder: String, now: UInt64) {
    schedule.schedule(folder, at: now + Monotonic.nanos(options.folderDelay))
  }

  /// A rename inside the watched folders, both halves seen.
  func moved(_ departure: MovePairing.Departure, to destination: String, now: UInt64) {
    let source = departure.path
    let isDirectory = departure.isDirectory
    schedule.rebase(source, to: destination)
    if contentWrites.remove(source) != nil { contentWrites.insert(destination) }
    hot.rename(source, to: destination)
    if isDirectory { table.rename(source, to: destination) }
    let wasIn = scope.verdict(forPath: source, isDirectory: isDirectory).isIncluded
    let isIn = scope.verdict(forPath: destination, isDirectory: isDirectory).isIncluded
    entriesChanged(in: PathText.parent(of: source), now: now)
    entriesChanged(in: PathText.parent(of: destination), now: now)
    guard isIn else {
      // Renamed out of scope (hidden, excluded): it goes, and so do its watches.
      if isDirectory { table.remove(under: destination) }
      schedule.removeAll(under: destination)
      schedule.schedule(source, at: now)
      return
    }
    if wasIn, !isUnderMissingRoot(source), live.isIndexed(source) {
      live.move(from: source, to: destination, isDirectory: isDirectory)
      logger.debug(
        "moved \(FaithfulPath.display(source)) to \(FaithfulPath.display(destination))")
    }
    // The new path's own stamp (ctime) and, for a folder, what the rules say below it now. A
    // file renamed over another is new content there (an atomic save): hot files wait.
    if isDirectory {
      schedule.schedule(destination, at: now, scan: true)
    } else {
      written(destination, now: now)
    }
  }

  /// A `movedFrom` whose `movedTo` never came: moved out of the roots.
  func departed(_ departure: MovePairing.Departure, now: UInt64) {
    if departure.isDirectory { table.remove(under: departure.path) }
    schedule.removeAll(under: departure.path)
    schedule.schedule(departure.path, at: now)
    entriesChanged(in: PathText.parent(of: departure.path), now: now)
  }
}
