import Glibc

/// The inotify event bits Lumen uses, spelled out one by one: `IN_ALL_EVENTS` and the other
/// multi-term macros do not import into Swift, and the single ones import as `Int32`.
public struct InotifyMask: OptionSet, Sendable, Hashable, CustomStringConvertible {
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  public static let access = InotifyMask(rawValue: UInt32(IN_ACCESS))
  public static let modify = InotifyMask(rawValue: UInt32(IN_MODIFY))
  public static let attrib = InotifyMask(rawValue: UInt32(IN_ATTRIB))
  public static let closeWrite = InotifyMask(rawValue: UInt32(IN_CLOSE_WRITE))
  public static let closeNoWrite = InotifyMask(rawValue: UInt32(IN_CLOSE_NOWRITE))
  public static let open = InotifyMask(rawValue: UInt32(IN_OPEN))
  public static let movedFrom = InotifyMask(rawValue: UInt32(IN_MOVED_FROM))
  public static let movedTo = InotifyMask(rawValue: UInt32(IN_MOVED_TO))
  public static let create = InotifyMask(rawValue: UInt32(IN_CREATE))
  public static let delete = InotifyMask(rawValue: UInt32(IN_DELETE))
  public static let deleteSelf = InotifyMask(rawValue: UInt32(IN_DELETE_SELF))
  public static let moveSelf = InotifyMask(rawValue: UInt32(IN_MOVE_SELF))
  // Flags the kernel sets on events.
  public static let unmount = InotifyMask(rawValue: UInt32(IN_UNMOUNT))
  public static let queueOverflow = InotifyMask(rawValue: UInt32(IN_Q_OVERFLOW))
  public static let ignored = InotifyMask(rawValue: UInt32(IN_IGNORED))
  public static let isDirectory = InotifyMask(rawValue: UInt32(IN_ISDIR))
  // Flags for `inotify_add_watch`.
  public static let onlyDirectory = InotifyMask(rawValue: UInt32(IN_ONLYDIR))
  public static let doNotFollow = InotifyMask(rawValue: UInt32(IN_DONT_FOLLOW))
  public static let excludeUnlinked = InotifyMask(rawValue: UInt32(IN_EXCL_UNLINK))

  /// What a folder watch asks for: every change to the folder's entries and to the folder
  /// itself, never reads (`IN_ACCESS`, `IN_OPEN`, `IN_CLOSE_NOWRITE`), so the crawl's own reading
  /// makes no events.
  public static let folderChanges: InotifyMask = [
    .modify, .attrib, .closeWrite, .movedFrom, .movedTo, .create, .delete, .deleteSelf,
    .moveSelf, .onlyDirectory, .doNotFollow, .excludeUnlinked,
  ]

  public var description: String {
    let names: [(InotifyMask, String)] = [
      (.access, "ACCESS"), (.modify, "MODIFY"), (.attrib, "ATTRIB"), (.closeWrite, "CLOSE_WRITE"),
      (.closeNoWrite, "CLOSE_NOWRITE"), (.open, "OPEN"), (.movedFrom, "MOVED_FROM"),
      (.movedTo, "MOVED_TO"), (.create, "CREATE"), (.delete, "DELETE"),
      (.deleteSelf, "DELETE_SELF"), (.moveSelf, "MOVE_SELF"), (.unmount, "UNMOUNT"),
      (.queueOverflow, "Q_OVERFLOW"), (.ignored, "IGNORED"), (.isDirectory, "ISDIR"),
    ]
    return names.filter { contains($0.0) }.map(\.1).joined(separator: "|")
  }
}

/// One event as read from an inotify descriptor.
public struct InotifyEvent: Sendable, Hashable, CustomStringConvertible {
  /// The watch it came from; -1 for a queue overflow.
  public var watch: Int32
  public var mask: InotifyMask
  /// Pairs a `movedFrom` with its `movedTo`; 0 otherwise.
  public var cookie: UInt32
  /// The entry's name inside the watched folder, as raw bytes; empty for events about the
  /// folder itself.
  public var name: [UInt8]

  public init(watch: Int32, mask: InotifyMask, cookie: UInt32, name: [UInt8]) {
    self.watch = watch
    self.mask = mask
    self.cookie = cookie
    self.name = name
  }

  public var description: String {
    "wd=\(watch) \(mask) cookie=\(cookie) name=\(String(decoding: name, as: UTF8.self))"
  }

  /// Parses a buffer `read` from an inotify descriptor. Each record is a 16-byte
  /// `struct inotify_event` header followed by `len` bytes of NUL-padded name: the flexible
  /// `name[]` member does not import into Swift, so the name is read by hand from after the
  /// header.
  static func parse(_ buffer: UnsafeRawBufferPointer) -> [InotifyEvent] {
    let header = MemoryLayout<inotify_event>.size
    var events: [InotifyEvent] = []
    var offset = 0
    while offset + header <= buffer.count {
      let raw = buffer.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
      let length = Int(raw.len)
      guard offset + header + length <= buffer.count else { break }
      var name: [UInt8] = []
      if length > 0 {
        let bytes = UnsafeRawBufferPointer(
          rebasing: buffer[(offset + header)..<(offset + header + length)])
        name = Array(bytes.prefix { $0 != 0 })
      }
      events.append(
        InotifyEvent(
          watch: raw.wd, mask: InotifyMask(rawValue: raw.mask), cookie: raw.cookie, name: name))
      offset += header + length
    }
    return events
  }
}
