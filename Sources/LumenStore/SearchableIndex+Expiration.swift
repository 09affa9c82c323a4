import Foundation
import GRDB

/// Expiration: every item has one. An item's own `expirationDate` wins; without one it expires
/// `defaultExpiration` after it was last indexed (re-indexing extends it), unless its domain has
/// an expiration set by `renewDomain`, in which case it stores none and lives exactly as long as
/// the domain: the crawler renews a whole tree of unchanged files with one write per crawl, and
/// when the crawls stop (a root unmounted or removed from the configuration) its items expire
/// together.
///
/// Queries never return an item from the moment it expires (the condition is part of every
/// query); `sweepExpired` deletes them, on open and whenever the caller wants.
extension SearchableIndex {
  /// Deletes expired items; returns how many.
  @discardableResult
  public func sweepExpired(now: Date? = nil) async throws -> Int {
    let now = now ?? options.clock()
    return try await write { writer in try writer.sweep(now: now) }
  }

  /// Sets a domain's expiration. Items of the domain indexed without their own expiration date
  /// (now and later) live until then; items with an own date keep it.
  public func renewDomain(_ domain: String, until expiration: Date) async throws {
    try await write { writer in
      let id = try writer.domainRow(domain).id
      try writer.db.execute(
        sql: "UPDATE domain SET expires = ? WHERE id = ?",
        arguments: [expiration.timeIntervalSinceReferenceDate, id])
    }
  }

  func sweepExpiredNow(_ now: Date) throws {
    _ = try writeNow { writer in try writer.sweep(now: now) }
  }
}
