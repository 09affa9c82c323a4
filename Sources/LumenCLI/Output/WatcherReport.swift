import Foundation
import LumenCrawl
import LumenModel

/// The watcher section of `lumen status`: from the lock (a watcher holds it) and the status
/// file it rewrites every second.
struct WatcherReport {
  let pid: Int32?
  let status: WatcherStatus?

  init(_ holder: (pid: Int32?, status: WatcherStatus?)) {
    pid = holder.pid
    status = holder.status
  }

  var lines: [String] {
    var lines = ["Watcher:       running" + (pid.map { " (pid \($0))" } ?? "")]
    guard let status else {
      lines.append("  (no status yet)")
      return lines
    }
    lines.append("  Started:     \(status.started)")
    for root in status.roots {
      lines.append("  Root:        \(FaithfulPath.display(root.path)) (\(root.state))")
    }
    let limit = status.watchLimit.map { " of \($0)" } ?? ""
    lines.append("  Watches:     \(status.watches)\(limit)")
    lines.append(
      "  Queue:       \(status.queueDepth) waiting, \(status.kernelQueueBytes) bytes of events unread"
    )
    lines.append(
      "  Events:      \(String(format: "%.1f", status.eventsPerSecond))/s, \(status.events) in all; "
        + "\(status.overflows) overflows, \(status.rescans) rescans")
    if status.unwatchedCount > 0 {
      lines.append(
        "  Unwatched:   \(status.unwatchedCount) folders (watch limit reached), rescanned every "
          + "\(Int(status.rescanSeconds)) s; raise fs.inotify.max_user_watches")
      for folder in status.unwatchedFolders.prefix(10) {
        lines.append("    \(FaithfulPath.display(folder))")
      }
    }
    lines.append("  Last error:  \(status.lastError ?? "none")")
    return lines
  }

  static func json(_ report: WatcherReport) -> JSONValue {
    var object: [(String, JSONValue)] = [
      ("running", .bool(true)), ("pid", report.pid.map { .number(Double($0)) } ?? .null),
    ]
    if let status = report.status {
      object += [
        ("started", .string(status.started)), ("updated", .string(status.updated)),
        (
          "roots",
          .array(
            status.roots.map {
              .object([("path", .string($0.path)), ("state", .string($0.state))])
            }
          )
        ),
        ("watches", .number(Double(status.watches))),
        ("watchLimit", status.watchLimit.map { .number(Double($0)) } ?? .null),
        ("queueDepth", .number(Double(status.queueDepth))),
        ("kernelQueueBytes", .number(Double(status.kernelQueueBytes))),
        ("unwatchedFolders", .array(status.unwatchedFolders.map { .string($0) })),
        ("unwatchedCount", .number(Double(status.unwatchedCount))),
        ("rescanSeconds", .number(status.rescanSeconds)),
        ("eventsPerSecond", .number(status.eventsPerSecond)),
        ("events", .number(Double(status.events))),
        ("overflows", .number(Double(status.overflows))),
        ("rescans", .number(Double(status.rescans))),
        ("committed", .number(Double(status.committed))),
        ("lastError", status.lastError.map { .string($0) } ?? .null),
      ]
    }
    return .object(object)
  }
}
