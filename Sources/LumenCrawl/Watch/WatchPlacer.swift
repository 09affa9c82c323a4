import Logging
import LumenModel
import Synchronization

/// Places watches for the watcher's thread and for the walk threads of its rescans alike, and
/// says once, loudly, when the watch limit is reached: unlike Baloo (which drops its whole
/// watcher) or Tracker (which silently stops adding watches), Lumen keeps going, names what is
/// left unwatched, and says how to raise the limit.
final class WatchPlacer: Sendable {
  let table: WatchTable
  private let logger: Logger
  private let rescanInterval: Duration
  private let limitReported = Atomic<Bool>(false)

  init(table: WatchTable, logger: Logger, rescanInterval: Duration) {
    self.table = table
    self.logger = logger
    self.rescanInterval = rescanInterval
  }

  func watch(_ folder: String) {
    switch table.add(folder) {
    case .watched:
      break
    case .limitReached:
      if !limitReported.exchange(true, ordering: .relaxed) {
        let limit = WatcherStatus.watchLimit().map { " (\($0))" } ?? ""
        logger.warning(
          """
          the inotify watch limit\(limit) is reached: \(FaithfulPath.display(folder)) and other \
          folders are not watched but rescanned every \(rescanInterval); raise the limit with \
          'sudo sysctl fs.inotify.max_user_watches=524288' (and a file in /etc/sysctl.d/ to \
          keep it)
          """)
      } else {
        logger.debug("not watched (limit): \(FaithfulPath.display(folder))")
      }
    case .failed(let error):
      if !error.isVanished {
        logger.warning("cannot watch \(FaithfulPath.display(folder)): \(error.message)")
      }
    }
  }
}
