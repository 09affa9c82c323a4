/// libexif reads at most 64 KiB of TIFF data (the size of a JPEG APP1 segment), but a TIFF or DNG
/// may keep IFD0 or its EXIF IFD anywhere in a file of many megabytes. This copies the
/// directories libexif understands (IFD0, EXIF, GPS, interoperability) and their values into one
/// compact TIFF structure with rewritten offsets, so libexif can still decode the values.
///
/// Left out: image data pointers and bulky blocks nobody indexes (strips, tiles, XMP, ICC,
/// IPTC, Photoshop, DNG private data) and the MakerNote, whose internal offsets would break on
/// relocation.
struct TIFFRelocator {
  static let byteLimit = 0xFFF0
  /// Image data pointers and blocks no attribute comes from; libexif need not see them.
  static let bulkyTags: Set<Int> = [
    0x0111, 0x0117, 0x0144, 0x0145, 0x014A, 0x0201, 0x0202, 0x02BC, 0x83BB, 0x8649, 0x8773,
    0xC634,
  ]
  static let droppedTags = bulkyTags.union([0x927C])
  static let largestKeptValue = 4096

  let source: TIFFSource
  let layout: TIFFLayout

  /// The compact TIFF bytes, or nil when IFD0 is missing.
  func compact() -> [UInt8]? {
    guard let ifd0 = layout.first(.image(index: 0)) else { return nil }
    let exif = layout.first(.exif)
    let gps = layout.first(.gps)
    let interoperability = exif == nil ? nil : layout.first(.interoperability)
    var sections: [(TIFFLayout.Directory, [TIFFLayout.Entry])] = []
    for directory in [ifd0, exif, gps, interoperability].compactMap({ $0 }) {
      let kept = directory.entries.filter { entry in
        guard !Self.droppedTags.contains(entry.tag), let size = entry.byteSize else { return false }
        if entry.tag == TIFFDirectoryWalker.Tag.exifIFD { return exif != nil }
        if entry.tag == TIFFDirectoryWalker.Tag.gpsIFD { return gps != nil }
        if entry.tag == TIFFDirectoryWalker.Tag.interoperabilityIFD {
          return interoperability != nil
        }
        return size <= Self.largestKeptValue
      }
      sections.append((directory, kept))
    }
    // Drop the largest values until everything fits in what libexif reads.
    while totalSize(sections) > Self.byteLimit {
      guard let (s, e) = largestOutOfLine(sections) else { return nil }
      sections[s].1.remove(at: e)
    }
    return write(sections)
  }

  private func totalSize(_ sections: [(TIFFLayout.Directory, [TIFFLayout.Entry])]) -> Int {
    var size = 8
    for (_, entries) in sections {
      size += 2 + 12 * entries.count + 4
      for entry in entries where entry.isOutOfLine { size += ((entry.byteSize ?? 0) + 1) & ~1 }
    }
    return size
  }

  private func largestOutOfLine(_ sections: [(TIFFLayout.Directory, [TIFFLayout.Entry])]) -> (
    Int, Int
  )? {
    var best: (Int, Int, Int)? = nil
    for (s, section) in sections.enumerated() {
      for (e, entry) in section.1.enumerated() where entry.isOutOfLine {
        let size = entry.byteSize ?? 0
        if best == nil || size > best!.2 { best = (s, e, size) }
      }
    }
    return best.map { ($0.0, $0.1) }
  }

  private func write(_ sections: [(TIFFLayout.Directory, [TIFFLayout.Entry])]) -> [UInt8] {
    let bigEndian = layout.bigEndian
    var directoryOffsets: [TIFFLayout.Kind: Int] = [:]
    var cursor = 8
    for (directory, entries) in sections {
      directoryOffsets[directory.kind] = cursor
      cursor += 2 + 12 * entries.count + 4
    }
    var out: [UInt8] = bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]
    out += Self.encode32(8, bigEndian)
    var values: [UInt8] = []
    let valuesStart = cursor
    for (_, entries) in sections {
      out += Self.encode16(entries.count, bigEndian)
      for entry in entries {
        out += Self.encode16(entry.tag, bigEndian)
        if let pointer = pointerTarget(entry.tag), let target = directoryOffsets[pointer] {
          out += Self.encode16(4, bigEndian) + Self.encode32(1, bigEndian)
          out += Self.encode32(target, bigEndian)
          continue
        }
        out += Self.encode16(entry.type, bigEndian) + Self.encode32(entry.count, bigEndian)
        let size = entry.byteSize ?? 0
        let raw = source.read(entry.valueOffset, entry.isOutOfLine ? size : 4) ?? []
        if entry.isOutOfLine {
          out += Self.encode32(valuesStart + values.count, bigEndian)
          values += raw + [UInt8](repeating: 0, count: size - raw.count + (size & 1))
        } else {
          out += raw + [UInt8](repeating: 0, count: 4 - raw.count)
        }
      }
      out += Self.encode32(0, bigEndian)
    }
    return out + values
  }

  private func pointerTarget(_ tag: Int) -> TIFFLayout.Kind? {
    switch tag {
    case TIFFDirectoryWalker.Tag.exifIFD: .exif
    case TIFFDirectoryWalker.Tag.gpsIFD: .gps
    case TIFFDirectoryWalker.Tag.interoperabilityIFD: .interoperability
    default: nil
    }
  }

  static func encode16(_ value: Int, _ bigEndian: Bool) -> [UInt8] {
    let a = UInt8(truncatingIfNeeded: value >> 8)
    let b = UInt8(truncatingIfNeeded: value)
    return bigEndian ? [a, b] : [b, a]
  }

  static func encode32(_ value: Int, _ bigEndian: Bool) -> [UInt8] {
    let bytes = (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
    return bigEndian ? bytes : bytes.reversed()
  }
}
