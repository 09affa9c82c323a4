import Foundation
import GRDB
import LumenModel

/// Reading single items, as `lumen show` does.
extension SearchableIndex {
  /// Every attribute of the item with this identifier (or path, for file items), including an
  /// expired item not yet swept; nil when there is none.
  public func item(withIdentifier identifier: String) async throws -> StoredItem? {
    let layout = self.layout
    return try await read { db, registry in
      guard let id = try ItemLookup.rowID(db, identifier: identifier) else { return nil }
      return try ItemReader(db: db, layout: layout, registry: registry).storedItem(rowID: id)?
        .stored
    }
  }
}
