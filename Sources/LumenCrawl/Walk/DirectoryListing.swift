/// A folder as the walk read it: the folder itself and the entries the scope admits (files,
/// links, subfolders, and special files, which the visitor reports rather than reads).
public struct DirectoryListing: Sendable {
  public let directory: CrawlEntry
  public let root: ScopeRoot
  public let entries: [CrawlEntry]
  /// Entries listed but not admitted because they could not be stated or entered (vanished
  /// since the listing, permission denied); their stored items are the visitor's to judge.
  public let failures: [CrawlError]
  /// Entries the scope kept out (hidden, ignored, excluded, marker folders, other devices).
  public let excludedCount: Int
  /// The root folder's own listing.
  public let isRoot: Bool
  /// A folder the walk started at (a root, or a folder given to a rescan).
  public let isStart: Bool
  /// The folder, open while the visit runs: its entries can be opened and checked relative to
  /// it (`openat` with the raw name) instead of resolving their whole paths again.
  let descriptor: Int32
}
