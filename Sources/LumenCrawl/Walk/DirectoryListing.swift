/// One entry found by the walk: its name and path in `FaithfulPath` form, and what `statx`
/// said about it (never following a symbolic link).
public struct CrawlEntry: Sendable, Equatable {
  public let name: String
  public let path: String
  public let status: FileStatus
  /// The name's bytes as the kernel gave them.
  let rawName: [UInt8]

  init(name: String, path: String, status: FileStatus, rawName: [UInt8]) {
    self.name = name
    self.path = path
    self.status = status
    self.rawName = rawName
  }

  public static func == (lhs: CrawlEntry, rhs: CrawlEntry) -> Bool {
    lhs.path == rhs.path && lhs.status == rhs.status
  }
}

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
}

/// A folder or entry the walk could not read; the crawl goes on.
public struct CrawlError: Error, Sendable, Equatable, CustomStringConvertible {
  public let path: String
  public let error: SystemCallError

  public init(path: String, error: SystemCallError) {
    self.path = path
    self.error = error
  }

  public var description: String { "\(path): \(error)" }
}
