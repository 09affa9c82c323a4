import Foundation
import GRDB

/// Reads folder listings (`SearchableIndex.children(ofDirectory:)`) synchronously through a
/// read-only connection of its own, for a crawl thread that compares every folder it walks with
/// the index's record of it.
///
/// Why: through the async API, each listing of a nothing-changed crawl started a task and
/// crossed to the pool's reader queue and back (thread switches were 13% of its profile), and
/// reading synchronously through the shared `DatabasePool` from two walk threads contended
/// inside the pool. A connection per thread needs neither: the read runs on the calling
/// thread. Each read is its own transaction, so it sees what the writer has committed.
///
/// Not for concurrent use: one thread at a time (the crawl keeps one per walk thread).
public final class ListingReader: @unchecked Sendable {
  private let queue: DatabaseQueue

  init(path: String, memoryMapBytes: Int, busyTimeout: TimeInterval) throws {
    var configuration = Configuration()
    configuration.readonly = true
    // As the index's own connections: a read may meet a lock for a moment (the writer's
    // checkpoint, another process recovering the log) and must wait rather than fail.
    configuration.busyMode = .timeout(busyTimeout)
    configuration.label = "lumen-listings"
    configuration.prepareDatabase { db in
      // A listing is one range read of `item_by_path`: a small cache, the memory map for the rest.
      try db.execute(sql: "PRAGMA cache_size = -2048")
      try db.execute(sql: "PRAGMA mmap_size = \(memoryMapBytes)")
    }
    queue = try DatabaseQueue(path: path, configuration: configuration)
  }

  deinit { try? queue.close() }

  /// The indexed files directly inside a folder, with their stamps (as
  /// `SearchableIndex.children(ofDirectory:)`).
  public func children(ofDirectory path: String) throws -> [FileEntry] {
    let folder = SearchableIndex.folderKey(path)
    return try queue.read { db in try SearchableIndex.children(db, folder: folder) }
  }
}

extension SearchableIndex {
  /// A reader of folder listings with a connection of its own (see `ListingReader`).
  public func makeListingReader() throws -> ListingReader {
    do {
      return try ListingReader(
        path: location.path, memoryMapBytes: options.memoryMapBytes,
        busyTimeout: options.busyTimeout)
    } catch {
      throw Self.translated(error, path: location.path)
    }
  }
}
