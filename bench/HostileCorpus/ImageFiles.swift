import Foundation

/// Photos that lie: JPEG, TIFF and PNG whose EXIF offsets point outside the file, whose IFD
/// chains loop, whose declared sizes are absurd, and real corpus photos cut short or with
/// flipped bits.
struct ImageFiles {
  let folder: CorpusFolder
  let corpus: String

  func make(random: inout SeededRandom) throws {
    let photos = (try? FileManager.default.contentsOfDirectory(atPath: corpus + "/images")) ?? []
    let jpegs = photos.filter { $0.lowercased().hasSuffix(".jpg") }.sorted()
    let tiffs = photos.filter { $0.lowercased().hasSuffix(".tiff") || $0.hasSuffix(".tif") }
      .sorted()
    for (index, name) in jpegs.prefix(6).enumerated() {
      let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: corpus + "/images/" + name)))
      let cut = Int.random(in: 2..<max(3, min(bytes.count, 4096)), using: &random)
      try folder.write(
        "photos/truncated-\(index).jpg", Array(bytes[..<cut]), kind: "JPEG cut at \(cut)")
      var flipped = bytes
      for _ in 0..<64 {
        let at = Int.random(in: 0..<min(flipped.count, 65536), using: &random)
        flipped[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
      }
      try folder.write("photos/bitflip-\(index).jpg", flipped, kind: "JPEG with 64 flipped bits")
    }
    for (index, name) in tiffs.prefix(3).enumerated() {
      var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: corpus + "/images/" + name)))
      try folder.write(
        "photos/truncated-\(index).tiff", Array(bytes[..<min(bytes.count, 200)]),
        kind: "TIFF cut after its first directory entries")
      for _ in 0..<32 {
        let at = Int.random(in: 0..<min(bytes.count, 1024), using: &random)
        bytes[at] = UInt8.random(in: 0...255, using: &random)
      }
      try folder.write(
        "photos/scrambled-\(index).tiff", bytes, kind: "TIFF with a scrambled header")
    }
    try folder.write(
      "photos/ifd-self-loop.tif", tiff(loopTo: 8), kind: "TIFF whose IFD0 is its own next IFD")
    try folder.write("photos/ifd-two-loop.tif", twoDirectoryLoop(), kind: "TIFF IFD0 → IFD1 → IFD0")
    try folder.write(
      "photos/exif-outside.jpg", jpeg(exif: exifPointingOutside()),
      kind: "JPEG whose EXIF offsets point past the end of the file")
    try folder.write(
      "photos/exif-loop.jpg", jpeg(exif: tiff(loopTo: 8)), kind: "JPEG whose EXIF IFD chain loops")
    try folder.write(
      "photos/exif-huge-count.jpg", jpeg(exif: exifHugeCount()),
      kind: "JPEG with an EXIF entry of 2^30 LONG values")
    try folder.write(
      "photos/huge-dimensions.png", png(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF),
      kind: "PNG declaring 2^31 × 2^31 pixels, with a looping eXIf chunk")
    try folder.write(
      "photos/endless-segments.jpg",
      [0xFF, 0xD8] + (0..<20000).flatMap { _ in [0xFF, 0xE2, 0x00, 0x02] as [UInt8] },
      kind: "JPEG with 20,000 empty APP2 segments and no image")
  }

  /// A little-endian TIFF whose only directory points at `loopTo` for its next IFD and for its
  /// EXIF and GPS sub-directories.
  func tiff(loopTo target: UInt32) -> [UInt8] {
    var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + Bytes.u32le(8)
    let entries: [[UInt8]] = [
      Bytes.ifdEntry(tag: 256, type: 3, count: 1, value: 16),
      Bytes.ifdEntry(tag: 257, type: 3, count: 1, value: 16),
      Bytes.ifdEntry(tag: 271, type: 2, count: 4, value: 0x0070_6F4C),  // "Lop\0" inline
      Bytes.ifdEntry(tag: 34665, type: 4, count: 1, value: target),
      Bytes.ifdEntry(tag: 34853, type: 4, count: 1, value: target),
    ]
    bytes += Bytes.u16le(entries.count) + entries.flatMap { $0 } + Bytes.u32le(target)
    return bytes
  }

  private func twoDirectoryLoop() -> [UInt8] {
    var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + Bytes.u32le(8)
    // IFD0 at 8: one entry, next → IFD1 at 26. IFD1 at 26: one entry, next → IFD0 at 8.
    bytes +=
      Bytes.u16le(1) + Bytes.ifdEntry(tag: 256, type: 3, count: 1, value: 1) + Bytes.u32le(26)
    bytes += Bytes.u16le(1) + Bytes.ifdEntry(tag: 257, type: 3, count: 1, value: 1) + Bytes.u32le(8)
    return bytes
  }

  private func exifPointingOutside() -> [UInt8] {
    var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + Bytes.u32le(8)
    let entries: [[UInt8]] = [
      Bytes.ifdEntry(tag: 271, type: 2, count: 64, value: 0x7FFF_FFF0),
      Bytes.ifdEntry(tag: 272, type: 2, count: 0xFFFF_FFFF, value: 0xFFFF_FF00),
      Bytes.ifdEntry(tag: 282, type: 5, count: 1, value: 0xFFFF_FFFC),
      Bytes.ifdEntry(tag: 34665, type: 4, count: 1, value: 0x00FF_FFFF),
      Bytes.ifdEntry(tag: 34853, type: 4, count: 1, value: 0xFFFF_FFFF),
    ]
    bytes += Bytes.u16le(entries.count) + entries.flatMap { $0 } + Bytes.u32le(0xFFFF_FFF0)
    return bytes
  }

  private func exifHugeCount() -> [UInt8] {
    var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + Bytes.u32le(8)
    let entries: [[UInt8]] = [
      Bytes.ifdEntry(tag: 271, type: 4, count: 0x4000_0000, value: 26),
      Bytes.ifdEntry(tag: 37500, type: 7, count: 0x7FFF_FFFF, value: 26),
    ]
    bytes += Bytes.u16le(entries.count) + entries.flatMap { $0 } + Bytes.u32le(0)
    return bytes
  }

  /// SOI, an APP1 "Exif" segment holding `exif`, a tiny SOF0 and EOI.
  func jpeg(exif: [UInt8]) -> [UInt8] {
    let payload = Bytes.ascii("Exif\0\0") + exif
    let sof: [UInt8] = [
      0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x10, 0x00, 0x10, 0x01, 0x01, 0x11, 0x00,
    ]
    return [0xFF, 0xD8, 0xFF, 0xE1] + Bytes.u16be(payload.count + 2) + payload + sof + [0xFF, 0xD9]
  }

  private func png(width: UInt32, height: UInt32) -> [UInt8] {
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
      let typed = Bytes.ascii(type) + data
      return Bytes.u32be(UInt32(data.count)) + typed + Bytes.u32be(Bytes.crc32(typed))
    }
    let header = Bytes.u32be(width) + Bytes.u32be(height) + [8, 6, 0, 0, 0]
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
      + chunk("eXIf", tiff(loopTo: 8)) + chunk("IEND", [])
  }
}
