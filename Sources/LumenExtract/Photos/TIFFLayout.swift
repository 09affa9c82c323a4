/// The directories of a TIFF structure as `TIFFDirectoryWalker` found them: enough to know the
/// main image's pixel size and to hand libexif exactly the bytes it needs.
struct TIFFLayout {
  enum Kind: Hashable {
    /// IFD0 and the IFDs chained after it (pages, or a thumbnail in EXIF).
    case image(index: Int)
    /// An IFD listed in a SubIFDs tag (DNG keeps its full-resolution raw there).
    case subImage
    case exif
    case gps
    case interoperability
  }

  struct Entry {
    let tag: Int
    let type: Int
    let count: Int
    /// Bytes the value occupies (`count` × the type's size); nil for types TIFF does not define.
    let byteSize: Int?
    /// Where the value starts: inside the entry when it fits in 4 bytes, else where it points.
    let valueOffset: Int
    /// Whether the value lives outside the entry.
    var isOutOfLine: Bool { (byteSize ?? 0) > 4 }
  }

  struct Directory {
    let kind: Kind
    let offset: Int
    let entries: [Entry]

    func entry(_ tag: Int) -> Entry? { entries.first { $0.tag == tag } }
    /// Bytes of the directory itself: count, 12-byte entries, next offset.
    var structureSize: Int { 2 + 12 * entries.count + 4 }
  }

  let bigEndian: Bool
  var directories: [Directory] = []
  var problems: [String] = []

  func first(_ kind: Kind) -> Directory? { directories.first { $0.kind == kind } }

  /// Where the directories libexif reads (IFD0, IFD1, EXIF, GPS, interoperability) and their
  /// values end: libexif needs the TIFF bytes up to there, and no more.
  var exifExtent: Int {
    var end = 8
    for directory in directories where directory.kind != .subImage {
      if case .image(let index) = directory.kind, index > 1 { continue }
      end = max(end, directory.offset + directory.structureSize)
      for entry in directory.entries
      where entry.isOutOfLine && !TIFFRelocator.bulkyTags.contains(entry.tag) {
        end = max(end, entry.valueOffset + (entry.byteSize ?? 0))
      }
    }
    return end
  }
}

extension TIFFLayout {
  /// Bytes per value of each TIFF field type (TIFF 6.0 §2, plus 13 = IFD from the TIFF
  /// supplements); nil for types the format does not define.
  static func typeSize(_ type: Int) -> Int? {
    switch type {
    case 1, 2, 6, 7: 1
    case 3, 8: 2
    case 4, 9, 11, 13: 4
    case 5, 10, 12: 8
    default: nil
    }
  }
}
