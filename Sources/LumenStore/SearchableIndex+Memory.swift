import Foundation
import GRDB

/// Memory for long-running processes. SQLite keeps a page cache per connection (64 MiB for the
/// writer, 8 MiB for each reader of the pool), which a bulk crawl fills and then no longer
/// needs, and which a watcher's trickle of writes would slowly fill again.
extension SearchableIndex {
  /// Gives back the memory SQLite holds for this index: the writer's page cache is emptied and
  /// idle reader connections are closed.
  public func releaseMemory() {
    pool.releaseMemory()
  }

  /// Caps the writer connection's page cache from now on (the 64 MiB it starts with speed up
  /// bulk crawls; a watcher's small transactions do as well with far less).
  public func limitWriterCache(kibibytes: Int) async throws {
    try await pool.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA cache_size = \(-max(64, kibibytes))")
    }
  }
}
