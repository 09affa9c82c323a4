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
