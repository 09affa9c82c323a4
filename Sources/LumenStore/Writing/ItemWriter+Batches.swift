import Foundation
import GRDB

extension ItemWriter {
  func apply(_ operations: [PendingOperation]) throws {
    for operation in operations {
      switch operation {
      case .index(let items): try write(items)
      case .deleteIdentifiers(let identifiers): try delete(identifiers: identifiers)
      case .deleteDomains(let domains): try delete(domains: domains)
      case .deleteAll: try deleteAll()
      }
    }
  }

  func storeClientState(_ state: Data) throws {
    try db.execute(
      sql: "INSERT OR REPLACE INTO meta(key, value) VALUES ('client_state', ?)",
      arguments: [state])
  }
}
