import CStatx
import Glibc
import LumenExtract

/// What `statx` says about one entry, without following a symbolic link.
///
/// `statx` rather than `lstat` because it also gives the birth time (ext4, btrfs, xfs, tmpfs
/// record it), which becomes `contentCreationDate`. The identity and change stamp that decide
/// re-extraction are here too: (device, inode) and (size, mtime, ctime).
public struct FileStatus: Sendable, Hashable {
  public var device: UInt64
  public var inode: UInt64
  /// `st_mode`: type and permission bits.
  public var mode: UInt32
  public var linkCount: UInt32
  public var ownerUserID: UInt32
  public var ownerGroupID: UInt32
  public var size: Int64
  /// Nanoseconds since 1970.
  public var modificationNanos: Int64
  public var changeNanos: Int64
  /// Nil when the file system does not record it.
  public var birthNanos: Int64?

  public init(
    device: UInt64, inode: UInt64, mode: UInt32, linkCount: UInt32 = 1, ownerUserID: UInt32,
    ownerGroupID: UInt32, size: Int64, modificationNanos: Int64, changeNanos: Int64,
    birthNanos: Int64? = nil
  ) {
    self.device = device
    self.inode = inode
    self.mode = mode
    self.linkCount = linkCount
    self.ownerUserID = ownerUserID
    self.ownerGroupID = ownerGroupID
    self.size = size
    self.modificationNanos = modificationNanos
    self.changeNanos = changeNanos
    self.birthNanos = birthNanos
  }

  public var kind: FileKind { FileKind(mode: mode) }
  /// The permission bits (`mode & 0o7777`), as `ls -l` shows them.
  public var permissions: UInt32 { mode & 0o7777 }

  /// `statx(directory, name, AT_SYMLINK_NOFOLLOW)`; `directory` may be `AT_FDCWD` with an
  /// absolute `name`.
  static func read(
    in directory: Int32, name: UnsafePointer<CChar>
  ) throws(SystemCallError) -> FileStatus {
    var buffer = statx()
    let mask = UInt32(STATX_BASIC_STATS) | UInt32(STATX_BTIME)
    _ = try retryingOnInterrupt("statx") {
      cstatx(directory, name, AT_SYMLINK_NOFOLLOW, mask, &buffer)
    }
    return FileStatus(buffer)
  }

  /// `lstat` of a path (FaithfulPath form).
  public static func read(path: String) throws(SystemCallError) -> FileStatus {
    let result = SystemPath(path).withCString { pointer in
      Result { () throws(SystemCallError) in try read(in: AT_FDCWD, name: pointer) }
    }
    return try result.get()
  }

  /// `fstat` of an open descriptor (a folder just opened: its own attributes).
  static func read(descriptor: Int32) throws(SystemCallError) -> FileStatus {
    var buffer = statx()
    let mask = UInt32(STATX_BASIC_STATS) | UInt32(STATX_BTIME)
    _ = try retryingOnInterrupt("statx") {
      cstatx(descriptor, "", CSTATX_AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, mask, &buffer)
    }
    return FileStatus(buffer)
  }

  init(_ buffer: statx) {
    // glibc's makedev encoding, so the number equals `st_dev` from stat(2).
    let major = UInt64(buffer.stx_dev_major)
    let minor = UInt64(buffer.stx_dev_minor)
    device =
      ((major & 0xFFFF_F000) << 32) | ((major & 0xFFF) << 8) | ((minor & 0xFFFF_FF00) << 12)
      | (minor & 0xFF)
    inode = buffer.stx_ino
    mode = UInt32(buffer.stx_mode)
    linkCount = buffer.stx_nlink
    ownerUserID = buffer.stx_uid
    ownerGroupID = buffer.stx_gid
    size = Int64(bitPattern: buffer.stx_size)
    modificationNanos = Self.nanos(buffer.stx_mtime)
    changeNanos = Self.nanos(buffer.stx_ctime)
    // A zero birth time is what some images and file systems report for "unknown".
    if buffer.stx_mask & UInt32(STATX_BTIME) != 0,
      buffer.stx_btime.tv_sec != 0 || buffer.stx_btime.tv_nsec != 0
    {
      birthNanos = Self.nanos(buffer.stx_btime)
    } else {
      birthNanos = nil
    }
  }

  private static func nanos(_ time: statx_timestamp) -> Int64 {
    time.tv_sec * 1_000_000_000 + Int64(time.tv_nsec)
  }
}
