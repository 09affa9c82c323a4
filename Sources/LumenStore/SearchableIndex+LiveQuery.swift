import Foundation
import GRDB
import LumenModel
import LumenQuery
import Synchronization

/// What a live query (`lumen find --live`) needs: the set of matches, streamed from a cursor so
/// that only the keys are held, never the rows.
extension SearchableIndex {
  /// The identifier of each item matching `query` (a file item's is its path), as `search`
  /// would return them with these options; attributes to fetch are ignored.
  public func matchingIdentifiers(
    _ query: QueryExpression, options: SearchOptions = SearchOptions()
  )
    async throws -> Set<String>
  {
    let now = self.options.clock()
    let layout = self.layout
    var options = options
    options.fetchAttributes = []
    if options.limit == nil { options.order = .unordered }
    let plain = options
    return try await read { db, registry in
      let statement = try SearchStatement(
        db, query: query, options: plain, kind: .rows, registry: registry, layout: layout,
        now: now)
      var identifiers: Set<String> = []
      let cursor = try Row.fetchCursor(db, sql: statement.sql, arguments: statement.arguments)
      while let row = try cursor.next() { identifiers.insert(ItemReader.identifier(row)) }
      return identifiers
    }
  }
}

/// Notices commits made to an index by any other connection, in this process or another (the
/// watcher's), by polling SQLite's `PRAGMA data_version` on a connection of its own: a read of
/// the WAL index in shared memory, cheap enough to ask every few milliseconds. (A GRDB
/// observation would only see this process's own writes.)
public final class IndexCommitMonitor: Sendable {
  private let queue: DatabaseQueue
  private let lastVersion: Mutex<Int?>

  public init(location: IndexLocation) throws {
    var configuration = Configuration()
    configuration.readonly = true
    configuration.label = "lumen-commits"
    do {
      queue = try DatabaseQueue(path: location.path, configuration: configuration)
    } catch let error as DatabaseError {
      throw SearchableIndexError.cannotOpen(
        path: location.path, reason: error.message ?? "\(error)")
    }
    lastVersion = Mutex(nil)
    _ = try hasNewCommits()
  }

  /// Whether a commit happened since the last call (the first call only takes the baseline).
  public func hasNewCommits() throws -> Bool {
    let version = try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
    return lastVersion.withLock { last in
      defer { last = version }
      guard let previous = last else { return false }
      return previous != version
    }
  }
}
