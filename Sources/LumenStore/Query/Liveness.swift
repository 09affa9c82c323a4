import GRDB

/// The SQL of "this item has not expired at ?now", over `item`. An item without its own
/// expiration follows its domain's; one whose domain has none has no expiration left (it cannot
/// be written that way; see `ItemWriter`) and counts as expired.
///
/// The unary `+` keeps SQLite from driving a query by the expiration index: nearly every item
/// is live, so the query's own condition is always the better way in.
enum Liveness {
  /// The cheapest condition that hides exactly the expired items at `now`: none at all when
  /// nothing has expired (the usual case between sweeps, and then a count needs no table rows,
  /// only index entries); a check of the row id against the few expired ones when only items
  /// with their own date expired; the full condition when a domain's date has passed.
  static func condition(
    _ db: Database, now: Double, compiler: inout QueryCompiler
  ) throws -> String? {
    let expiredItems =
      try Bool.fetchOne(
        db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM item WHERE expires <= ?)"),
        arguments: [now]) ?? true
    let expiredDomains =
      try Bool.fetchOne(
        db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM domain WHERE expires <= ?)"),
        arguments: [now]) ?? true
    if !expiredItems && !expiredDomains { return nil }
    let parameter = compiler.bind(now)
    if !expiredDomains {
      return "item.id NOT IN (SELECT id FROM item WHERE expires <= \(parameter))"
    }
    return condition(now: parameter)
  }

  static func condition(now parameter: String) -> String {
    """
    (+item.expires > \(parameter) OR (+item.expires IS NULL AND +item.domain_id IN \
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
