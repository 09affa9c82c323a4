/// What identifies one version of a file on disk, from `stat`: the crawler compares it with the
/// disk to skip unchanged files without reading them, and finds moved files by (device, inode).
public struct FileStamp: Sendable, Hashable, Codable {
  public var device: UInt64
  public var inode: UInt64
  public var size: Int64
  /// st_mtim in nanoseconds since 1970.
  public var modificationNanos: Int64
  /// st_ctim in nanoseconds since 1970: changes on chmod, chown, link count and renames too.
  public var changeNanos: Int64

  public init(
    device: UInt64, inode: UInt64, size: Int64, modificationNanos: Int64, changeNanos: Int64
  ) {
    self.device = device
    self.inode = inode
    self.size = size
    self.modificationNanos = modificationNanos
    self.changeNanos = changeNanos
  }
}

/// The extractor that produced an item's attributes, so an upgrade re-extracts exactly the
/// files whose extractor changed.
public struct ExtractorStamp: Sendable, Hashable, Codable {
  public var name: String
  public var version: Int

  public init(name: String, version: Int) {
    self.name = name
    self.version = version
  }
}
