import LumenStore
import Synchronization

/// The index's record of folders the walk is about to read, fetched ahead: when a folder is
/// visited, the stored listings of its subfolders are read together, and whichever crawl thread
/// visits a subfolder later takes its listing from here.
///
/// Why on the crawl thread itself, through a `ListingReader` (a read-only connection) per
/// thread reading at the same time: through the index's async API each read started a task and
/// crossed to the reader queue and back, four thread switches that cost more than the read
/// (bench/crawl-README.md: a nothing-changed re-run of 200,000 files went from 1.5–1.6 s to
/// 0.6–0.7 s); reading through the shared pool synchronously from two threads contended in it.
///
/// A listing fetched ahead may be older than a move the crawl makes before its folder is
/// visited; that only costs a deletion that the writer's final check drops (it re-reads the
/// parent before deleting). Memory stays bounded: nothing is fetched ahead while `entryBudget`
/// entries are waiting.
final class StoredListings: Sendable {
  private struct Waiting {
    var listings: [String: [FileEntry]] = [:]
    var entries = 0
  }

  private let index: SearchableIndex
  private let waiting = Mutex(Waiting())
  /// Readers not in use: a thread takes one (or opens one) and puts it back, so there are as
  /// many as threads ever read at once.
  private let readers = Mutex<[ListingReader]>([])

  static let entryBudget = 50_000
  /// At most this many folders per round trip, so that the visit handing them out waits little.
  static let foldersPerFetch = 64

  init(index: SearchableIndex) {
    self.index = index
  }

  /// Fetches the stored listings of `folders` (subfolders the walk will read next) in one round
  /// trip. Does nothing for a single folder (no trip saved), over budget, or on error (the visit
  /// then asks itself, and reports the error).
  func fetchAhead(_ folders: [String]) {
    guard folders.count > 1, waiting.withLock({ $0.entries < Self.entryBudget }) else { return }
    let wanted = Array(folders.prefix(Self.foldersPerFetch))
    guard
      let fetched = try? withReader({ reader in
        var listings: [(String, [FileEntry])] = []
        listings.reserveCapacity(wanted.count)
        for folder in wanted {
          listings.append((folder, try reader.children(ofDirectory: folder)))
        }
        return listings
      })
    else { return }
    waiting.withLock { waiting in
      for (folder, listing) in fetched where waiting.listings[folder] == nil {
        waiting.listings[folder] = listing
        waiting.entries += listing.count
      }
    }
  }

  /// The stored listing of `folder`: the one fetched ahead (handed out once), else read now.
  func children(of folder: String) throws -> [FileEntry] {
    let ahead = waiting.withLock { waiting -> [FileEntry]? in
      guard let listing = waiting.listings.removeValue(forKey: folder) else { return nil }
      waiting.entries -= listing.count
      return listing
    }
    if let ahead { return ahead }
    return try withReader { reader in try reader.children(ofDirectory: folder) }
  }

  private func withReader<T>(_ body: (ListingReader) throws -> T) throws -> T {
    let reader = try readers.withLock { $0.popLast() } ?? index.makeListingReader()
    defer { readers.withLock { $0.append(reader) } }
    return try body(reader)
  }
}
