/// A file found by inode: where it is indexed, and its entry.
public struct IndexedFile: Sendable, Hashable {
  public var path: String
  public var entry: FileEntry

  public init(path: String, entry: FileEntry) {
    self.path = path
    self.entry = entry
  }
}
