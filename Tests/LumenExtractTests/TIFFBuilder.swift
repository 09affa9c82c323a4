/// Builds small TIFF structures for tests: IFD0 with chosen entries, an EXIF IFD, padding, and
/// deliberately broken links (loops, offsets past the end), in either byte order.
struct TIFFBuilder {
  struct Entry {
    let tag: Int
    let type: Int
    let count: Int
    let value: [UInt8]
  }

  var bigEndian: Bool
  var ifd0: [Entry] = []
  var exif: [Entry] = []
  /// Zero bytes between the header and IFD0, to push the directories past libexif's 64 KiB.
  var padding = 0
  /// Overrides IFD0's next-IFD pointer (e.g. to point back at IFD0).
  var nextIFDOverride: Int? = nil
  /// Overrides the header's IFD0 offset.
  var ifd0OffsetOverride: Int? = nil

  init(bigEndian: Bool) { self.bigEndian = bigEndian }

  func u16(_ v: Int) -> [UInt8] {
    let b = [UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
    return bigEndian ? b : b.reversed()
  }

  func u32(_ v: Int) -> [UInt8] {
    let b = (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) }
    return bigEndian ? b : b.reversed()
  }

  func short(_ tag: Int, _ value: Int) -> Entry {
    Entry(tag: tag, type: 3, count: 1, value: u16(value))
  }
  func long(_ tag: Int, _ value: Int) -> Entry {
    Entry(tag: tag, type: 4, count: 1, value: u32(value))
  }
  func ascii(_ tag: Int, _ text: String) -> Entry {
    let bytes = Array(text.utf8) + [0]
    return Entry(tag: tag, type: 2, count: bytes.count, value: bytes)
  }
  func rational(_ tag: Int, _ numerator: Int, _ denominator: Int) -> Entry {
    Entry(tag: tag, type: 5, count: 1, value: u32(numerator) + u32(denominator))
  }
  func rationals(_ tag: Int, _ values: [(Int, Int)]) -> Entry {
    Entry(
      tag: tag, type: 5, count: values.count, value: values.flatMap { u32($0.0) + u32($0.1) })
  }

  /// The TIFF bytes. The EXIF IFD pointer (0x8769) is added to IFD0 when `exif` is not empty.
  func build() -> [UInt8] {
    var out: [UInt8] = bigEndian ? [0x4D, 0x4D, 0, 42] : [0x49, 0x49, 42, 0]
    let ifd0Offset = 8 + padding
    out += u32(ifd0OffsetOverride ?? ifd0Offset)
    out += [UInt8](repeating: 0, count: padding)
    var ifd0Entries = ifd0
    let exifPointerIndex = exif.isEmpty ? nil : ifd0Entries.count
    if exifPointerIndex != nil { ifd0Entries.append(long(0x8769, 0)) }
    let ifd0Size = 2 + 12 * ifd0Entries.count + 4
    let exifOffset = ifd0Offset + ifd0Size
    let exifSize = exif.isEmpty ? 0 : 2 + 12 * exif.count + 4
    var dataOffset = exifOffset + exifSize
    var data: [UInt8] = []

    func directory(_ entries: [Entry], next: Int) -> [UInt8] {
      var bytes = u16(entries.count)
      for entry in entries {
        bytes += u16(entry.tag) + u16(entry.type) + u32(entry.count)
        if entry.value.count <= 4 {
          bytes += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
        } else {
          bytes += u32(dataOffset)
          data += entry.value
          dataOffset += entry.value.count
          if entry.value.count % 2 == 1 {
            data.append(0)
            dataOffset += 1
          }
        }
      }
      return bytes + u32(next)
    }
    if let index = exifPointerIndex { ifd0Entries[index] = long(0x8769, exifOffset) }
    out += directory(ifd0Entries, next: nextIFDOverride ?? 0)
    if !exif.isEmpty { out += directory(exif, next: 0) }
    return out + data
  }
}
