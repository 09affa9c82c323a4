import Foundation
import LumenModel

/// Core Spotlight's writing verbs.
extension SearchableIndex {
  /// Indexes items in transactions of at most `batchSize` items. A full item replaces the stored
  /// item with its identifier entirely; an item with `isUpdate` merges into it (attributes it
  /// sets replace, attributes it removes are deleted) and is dropped when there is none.
  /// Inside a batch (`beginBatch()`), items are buffered and written with the batch.
  public func indexSearchableItems(_ items: [SearchableItem]) async throws {
    if try await enqueueInBatch(.index(items)) { return }
    // Each chunk's rows are drafted while the one before it is written.
    try await writePipelined(
      items.chunked(by: options.batchSize), draft: { await self.drafts(for: $0) }
    ) { chunk, drafts in
      let chunk = Array(chunk)
      try await write { writer in try writer.write(chunk, drafts: drafts) }
    }
  }

  /// Deletes items by identifier (unknown ones are ignored).
  public func deleteSearchableItems(withIdentifiers identifiers: [String]) async throws {
    if try await enqueueInBatch(.deleteIdentifiers(identifiers)) { return }
    for chunk in identifiers.chunked(by: options.batchSize) {
      let chunk = Array(chunk)
      try await write { writer in try writer.delete(identifiers: chunk) }
    }
  }

  /// Deletes the items of these domains and of their subdomains: `mail` deletes `mail` and
  /// `mail.inbox`, but not `mailbox`.
  public func deleteSearchableItems(withDomainIdentifiers domains: [String]) async throws {
    if try await enqueueInBatch(.deleteDomains(domains)) { return }
    try await write { writer in
      try writer.delete(domains: domains)
      try writer.deleteUnusedDirectories()
    }
  }

  /// Deletes every item. Custom keys, domain renewals and the client state stay.
  public func deleteAllSearchableItems() async throws {
    if try await enqueueInBatch(.deleteAll) { return }
    try await write { writer in try writer.deleteAll() }
  }

  /// Declares custom attribute keys (Core Spotlight's `CSCustomAttributeKey`), so queries can
  /// name them before any item uses them. Declaring a key again with the same type and
  /// multiplicity is harmless; with another, it is an error.
  public func declareCustomKeys(_ keys: [AttributeKey]) async throws {
    for key in keys where !key.isCustom {
      throw SearchableIndexError.attributeKey(.builtInName(key.name))
    }
    try await write { writer in try writer.declare(keys) }
  }
}
