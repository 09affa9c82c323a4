import Foundation

/// Image files assembled byte by byte, for formats the corpus lacks (PNG, GIF, WebP) and for
/// hostile variants of those it has. Headers follow each format's specification; the pixel
/// data is a stub, which is all a metadata reader looks at.
enum ImageFixtures {
  static func png(width: Int, height: Int, exif: [UInt8]? = nil, xmp: String? = nil) -> [UInt8] {
    var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    out += chunk("IHDR", be32(width) + be32(height) + [8, 2, 0, 0, 0])
    if let xmp {
      out += chunk("iTXt", Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + Array(xmp.utf8))
    }
    if let exif { out += chunk("eXIf", exif) }
    out += chunk("IDAT", [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])
    out += chunk("IEND", [])
    return out
  }

  static func gif(width: Int, height: Int) -> [UInt8] {
    Array("GIF89a".utf8) + le16(width) + le16(height) + [0, 0, 0] + [0x3B]
  }

  /// An extended WebP (VP8X) with a canvas size and an EXIF chunk.
  static func webpExtended(width: Int, height: Int, exif: [UInt8]) -> [UInt8] {
    let vp8x: [UInt8] = [0x08, 0, 0, 0] + le24(width - 1) + le24(height - 1)
    return riff(riffChunk("VP8X", vp8x) + riffChunk("EXIF", exif))
  }

  /// A simple lossy WebP: the VP8 frame header (RFC 6386 §9.1) holds the size.
  static func webpLossy(width: Int, height: Int) -> [UInt8] {
    let frame: [UInt8] = [0x50, 0x01, 0x00, 0x9D, 0x01, 0x2A] + le16(width) + le16(height)
    return riff(riffChunk("VP8 ", frame + [0, 0]))
  }

  /// A simple lossless WebP: the VP8L header packs width-1 and height-1 in 14 bits each.
  static func webpLossless(width: Int, height: Int) -> [UInt8] {
    let bits = (width - 1) | (height - 1) << 14
    return riff(riffChunk("VP8L", [0x2F] + le32(bits) + [0, 0, 0]))
  }

  static func riff(_ body: [UInt8]) -> [UInt8] {
    Array("RIFF".utf8) + le32(body.count + 4) + Array("WEBP".utf8) + body
  }

  static func riffChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    Array(type.utf8) + le32(data.count) + data + (data.count % 2 == 1 ? [0] : [])
  }

  static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + data
    return be32(data.count) + typed + be32(Int(crc32(typed)))
  }

  /// A JPEG: SOI, APP1 Exif, a baseline frame header, and EOI.
  static func jpeg(width: Int, height: Int, exif: [UInt8]) -> [UInt8] {
    let app1 = Array("Exif".utf8) + [0, 0] + exif
    var out: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1] + be16(app1.count + 2) + app1
    out += [0xFF, 0xC0] + be16(17) + [8] + be16(height) + be16(width) + [3]
    out += [1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
    out += [0xFF, 0xD9]
    return out
  }

  static func be16(_ v: Int) -> [UInt8] {
    [UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
  }
  static func be32(_ v: Int) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) }
  }
  static func le16(_ v: Int) -> [UInt8] { be16(v).reversed() }
  static func le24(_ v: Int) -> [UInt8] { (0..<3).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
  static func le32(_ v: Int) -> [UInt8] { be32(v).reversed() }

  /// CRC-32 as PNG chunks use it (ISO 3309, polynomial 0xEDB88320).
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return crc ^ 0xFFFF_FFFF
  }

  /// Writes `bytes` to `name` in `directory` and returns the path.
  static func write(_ bytes: [UInt8], _ name: String, in directory: URL) throws -> String {
    let url = directory.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url.path
  }
}
