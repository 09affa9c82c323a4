import Foundation
import GRDB

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
      let doomed =
        try Int.fetchOne(
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
