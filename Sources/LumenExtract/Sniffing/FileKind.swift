import Glibc

/// What `lstat` says an entry is. Only regular files are ever opened: reading a FIFO blocks,
/// reading a device can have side effects, so those are decided from the mode bits alone.
public enum FileKind: String, Sendable, Codable, CaseIterable {
  case regular
  case directory
  case symbolicLink
  case fifo
  case socket
  case characterDevice
  case blockDevice
  case unknown

  /// The kind of a `st_mode` / `stx_mode`.
  public init(mode: UInt32) {
    switch mode & UInt32(S_IFMT) {
    case UInt32(S_IFREG): self = .regular
    case UInt32(S_IFDIR): self = .directory
    case UInt32(S_IFLNK): self = .symbolicLink
    case UInt32(S_IFIFO): self = .fifo
    case UInt32(S_IFSOCK): self = .socket
    case UInt32(S_IFCHR): self = .characterDevice
    case UInt32(S_IFBLK): self = .blockDevice
    default: self = .unknown
    }
  }

  /// The kind a directory entry's `d_type` announces, or nil when the file system does not say
  /// (`DT_UNKNOWN`) and a `stat` must decide.
  public init?(directoryEntryType type: UInt8) {
    switch Int(type) {
    case Int(DT_REG): self = .regular
    case Int(DT_DIR): self = .directory
    case Int(DT_LNK): self = .symbolicLink
    case Int(DT_FIFO): self = .fifo
    case Int(DT_SOCK): self = .socket
    case Int(DT_CHR): self = .characterDevice
    case Int(DT_BLK): self = .blockDevice
    default: return nil
    }
  }

  /// The MIME type libmagic's `magic_file` gives such an entry without reading it.
  public var inodeMIMEType: String? {
    switch self {
    case .regular, .unknown: nil
    case .directory: "inode/directory"
    case .symbolicLink: "inode/symlink"
    case .fifo: "inode/fifo"
    case .socket: "inode/socket"
    case .characterDevice: "inode/chardevice"
    case .blockDevice: "inode/blockdevice"
    }
  }
}
