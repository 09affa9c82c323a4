import Glibc
import Synchronization

/// Which folder each inotify watch stands for, and which folders could not be watched.
///
/// Paths change under a watch: inotify watches inodes, so a renamed folder keeps its watches
/// (and those of everything below it) and only the paths here are rewritten. Shared between the
/// watcher's thread and the walk threads of its rescans, which add watches as they go.
final class WatchTable: Sendable {
  enum Outcome: Equatable {
    case watched(Int32)
    /// The watch limit was reached (the kernel's ENOSPC, or the configured maximum): the folder
    /// is left to the periodic rescan.
    case limitReached
    /// The folder vanished or cannot be watched for another reason.
    case failed(SystemCallError)
  }

  private struct State {
    var paths: [Int32: String] = [:]
    var watches: [String: Int32] = [:]
    var unwatched: Set<String> = []
    var limitWarnings = 0
  }

  private let inotify: Inotify
  private let maximum: Int?
  private let state = Mutex(State())

  init(inotify: Inotify, maximum: Int?) {
    self.inotify = inotify
    self.maximum = maximum
  }

  /// Watches `folder` (again: a folder already watched keeps its watch, under this path now).
  @discardableResult
  func add(_ folder: String) -> Outcome {
    let full = state.withLock { state in
      guard let maximum, state.watches[folder] == nil else { return false }
      return state.paths.count >= maximum
    }
    if full {
      state.withLock { _ = $0.unwatched.insert(folder) }
      return .limitReached
    }
    do {
      let watch = try inotify.addWatch(folder)
      state.withLock { state in
        if let previous = state.paths[watch], previous != folder {
          state.watches[previous] = nil
        }
        if let old = state.watches[folder], old != watch { state.paths[old] = nil }
        state.paths[watch] = folder
        state.watches[folder] = watch
        state.unwatched.remove(folder)
      }
      return .watched(watch)
    } catch {
      if error.code == ENOSPC {
        state.withLock { _ = $0.unwatched.insert(folder) }
        return .limitReached
      }
      return .failed(error)
    }
  }

  /// The folder a watch stands for.
  func path(of watch: Int32) -> String? {
    state.withLock { $0.paths[watch] }
  }

  func isWatched(_ folder: String) -> Bool {
    state.withLock { $0.watches[folder] != nil }
  }

  /// The kernel dropped a watch (`IN_IGNORED`: its folder was deleted, or it was removed).
  func forget(watch: Int32) {
    state.withLock { state in
      if let path = state.paths.removeValue(forKey: watch), state.watches[path] == watch {
        state.watches[path] = nil
      }
    }
  }

  /// A folder moved: its watch and those below it now stand for paths under `destination`.
  func rename(_ source: String, to destination: String) {
    state.withLock { state in
      let moved = state.watches.filter { PathText.isWithin($0.key, source) }
      for (path, _) in moved { state.watches[path] = nil }
      for (path, watch) in moved {
        let renamed = PathText.rebase(path, from: source, to: destination)
        state.watches[renamed] = watch
        state.paths[watch] = renamed
      }
      let unwatched = state.unwatched.filter { PathText.isWithin($0, source) }
      state.unwatched.subtract(unwatched)
      state.unwatched.formUnion(
        unwatched.map { PathText.rebase($0, from: source, to: destination) })
    }
  }

  /// Stops watching `folder` and everything below it (moved out of the roots or out of scope,
  /// or a root that went away).
  func remove(under folder: String) {
    let removed = state.withLock { state -> [Int32] in
      let doomed = state.watches.filter { PathText.isWithin($0.key, folder) }
      for (path, watch) in doomed {
        state.watches[path] = nil
        state.paths[watch] = nil
      }
      state.unwatched = state.unwatched.filter { !PathText.isWithin($0, folder) }
      return Array(doomed.values)
    }
    for watch in removed { inotify.removeWatch(watch) }
  }

  /// Drops the watches of folders not in `kept` (after a full rescan, which saw every folder
  /// that exists: the others were deleted while their events were lost).
  func retain(onlyUnder roots: [String], kept: Set<String>) {
    let removed = state.withLock { state -> [Int32] in
      let doomed = state.watches.filter { path, _ in
        !kept.contains(path) && roots.contains { PathText.isWithin(path, $0) }
      }
      for (path, watch) in doomed {
        state.watches[path] = nil
        state.paths[watch] = nil
      }
      return Array(doomed.values)
    }
    for watch in removed { inotify.removeWatch(watch) }
  }

  /// The folders left unwatched, fewest first: one that lies below another is covered by it.
  func unwatchedTops() -> [String] {
    let all = state.withLock { $0.unwatched }.sorted()
    var tops: [String] = []
    for folder in all where !tops.contains(where: { PathText.isWithin(folder, $0) }) {
      tops.append(folder)
    }
    return tops
  }

  /// Forgets that these folders were unwatched: the rescan about to walk them tries again.
  func clearUnwatched(under folders: [String]) {
    state.withLock { state in
      state.unwatched = state.unwatched.filter { path in
        !folders.contains { PathText.isWithin(path, $0) }
      }
    }
  }

  var count: Int { state.withLock { $0.paths.count } }
  var unwatchedCount: Int { state.withLock { $0.unwatched.count } }
  func unwatched(limit: Int) -> [String] {
    Array(state.withLock { $0.unwatched }.sorted().prefix(limit))
  }
}
