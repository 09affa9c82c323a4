import Foundation
import LumenModel
import LumenQuery
import LumenStore
import Synchronization

/// `lumen find --live`: after the first results, waits for commits to the index (made by
/// `lumen watch` in another process, or anything else), runs the query again after each, and
/// prints the difference: `+ path` for items that started matching, `- path` for those that
/// stopped, as `mdfind -live` does. Only the matches' identifiers are kept between runs.
struct LiveQuery {
  let index: SearchableIndex
  let expression: QueryExpression
  let options: SearchOptions
  let commits: IndexCommitMonitor
  let json: Bool
  let separator: [UInt8]
  /// How often the index is asked whether something was committed: a read of shared memory.
  static let pollInterval: Duration = .milliseconds(25)

  /// Follows changes until SIGINT or SIGTERM.
  func follow(from initial: Set<String>, output: OutputStream) async throws {
    let stop = Stop()
    let signals = InterruptHandler(message: nil) { stop.requested.store(true, ordering: .relaxed) }
    defer { signals.cancel() }
    var current = initial
    while !stop.requested.load(ordering: .relaxed) {
      try await Task.sleep(for: Self.pollInterval)
      guard try commits.hasNewCommits() else { continue }
      let next = try await index.matchingIdentifiers(expression, options: options)
      for identifier in current.subtracting(next).sorted() {
        write(event: "removed", identifier, to: output)
      }
      for identifier in next.subtracting(current).sorted() {
        write(event: "added", identifier, to: output)
      }
      output.flush()
      current = next
    }
  }

  private func write(event: String, _ identifier: String, to output: OutputStream) {
    if json {
      var object: [(String, JSONValue)] = [("event", .string(event)), ("id", .string(identifier))]
      // A file item's identifier is its path.
      if identifier.hasPrefix("/") {
        object.append(("path", .string(FaithfulPath.display(identifier))))
      }
      output.write(JSONValue.object(object).line())
    } else {
      output.write(event == "added" ? "+ " : "- ")
      output.write(bytes: FaithfulPath.encode(identifier))
    }
    output.write(bytes: separator)
  }

  private final class Stop: Sendable {
    let requested = Atomic<Bool>(false)
  }
}
