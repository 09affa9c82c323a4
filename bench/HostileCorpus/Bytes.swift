/// Little helpers for writing binary formats by hand.
enum Bytes {
  static func u16le(_ value: Int) -> [UInt8] { [UInt8(value & 0xff), UInt8((value >> 8) & 0xff)] }

  static func u32le(_ value: UInt32) -> [UInt8] {
    (0..<4).map { UInt8((value >> (8 * UInt32($0))) & 0xff) }
  }

  static func u16be(_ value: Int) -> [UInt8] { [UInt8((value >> 8) & 0xff), UInt8(value & 0xff)] }

  static func u32be(_ value: UInt32) -> [UInt8] {
    (0..<4).reversed().map { UInt8((value >> (8 * UInt32($0))) & 0xff) }
  }

  /// ID3v2 "syncsafe" integer: 7 bits per byte.
  static func syncsafe(_ value: UInt32) -> [UInt8] {
    [24, 16, 8, 0].map { UInt8((value >> UInt32($0 / 8 * 7)) & 0x7f) }
  }

  static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

  /// CRC-32 (IEEE), for PNG chunks.
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
    }
    return ~crc
  }

  /// One little-endian TIFF directory entry.
  static func ifdEntry(tag: Int, type: Int, count: UInt32, value: UInt32) -> [UInt8] {
    u16le(tag) + u16le(type) + u32le(count) + u32le(value)
  }
}
