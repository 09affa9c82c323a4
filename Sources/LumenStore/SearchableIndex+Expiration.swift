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

/// The SQL of "this item has not expired at ?now", over `item`. An item without its own
/// expiration follows its domain's; one whose domain has none has no expiration left (it cannot
/// be written that way; see `ItemWriter`) and counts as expired.
enum Liveness {
  static func condition(now parameter: String) -> String {
    """
    (item.expires > \(parameter) OR (item.expires IS NULL AND item.domain_id IN \
    (SELECT id FROM domain WHERE expires > \(parameter))))
    """
  }

  static func expired(now parameter: String) -> String {
    """
    (item.expires <= \(parameter) OR (item.expires IS NULL AND (item.domain_id IS NULL OR \
    item.domain_id NOT IN (SELECT id FROM domain WHERE expires > \(parameter)))))
    """
  }
}

extension ItemWriter {
  func sweep(now: Date) throws -> Int {
    let seconds = now.timeIntervalSinceReferenceDate
    let explicit = "expires <= ?"
    // Items without an own date always have a domain with an expiration (see `ItemWriter`), so
    // only the domains whose date has passed need looking at.
    let inherited = """
      expires IS NULL AND domain_id IN (SELECT id FROM domain WHERE expires <= ?)
      """
    var count = 0
    for condition in [explicit, inherited] {
      let doomed = try Int.fetchOne(
        db, sql: "SELECT count(*) FROM item WHERE \(condition)", arguments: [seconds]) ?? 0
      if doomed > 0 {
        try deleteItems(where: condition, arguments: [seconds])
        count += doomed
      }
    }
    if count > 0 { try deleteUnusedDirectories() }
    return count
  }
}
