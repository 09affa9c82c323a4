/// Bounds-checked integer reads from a byte array, in either byte order. Every read returns nil
/// instead of trapping when it would run past the end, so a parser of hostile headers can bail
/// out with `guard let` and never index out of range.
struct ByteView {
  let bytes: [UInt8]
  var bigEndian: Bool

  init(_ bytes: [UInt8], bigEndian: Bool = true) {
    self.bytes = bytes
    self.bigEndian = bigEndian
  }

  var count: Int { bytes.count }

  func has(_ offset: Int, _ length: Int) -> Bool {
    offset >= 0 && length >= 0 && offset <= bytes.count && length <= bytes.count - offset
  }

  func u8(_ offset: Int) -> UInt8? {
    has(offset, 1) ? bytes[offset] : nil
  }

  func u16(_ offset: Int) -> Int? {
    guard has(offset, 2) else { return nil }
    let a = Int(bytes[offset])
    let b = Int(bytes[offset + 1])
    return bigEndian ? a << 8 | b : b << 8 | a
  }

  func u24(_ offset: Int) -> Int? {
    guard has(offset, 3) else { return nil }
    let a = Int(bytes[offset])
    let b = Int(bytes[offset + 1])
    let c = Int(bytes[offset + 2])
    return bigEndian ? a << 16 | b << 8 | c : c << 16 | b << 8 | a
  }

  func u32(_ offset: Int) -> Int? {
    guard has(offset, 4) else { return nil }
    var value = 0
    for i in 0..<4 {
      let byte = Int(bytes[offset + (bigEndian ? i : 3 - i)])
      value = value << 8 | byte
    }
    return value
  }

  func u64(_ offset: Int) -> UInt64? {
    guard has(offset, 8) else { return nil }
    var value: UInt64 = 0
    for i in 0..<8 {
      value = value << 8 | UInt64(bytes[offset + (bigEndian ? i : 7 - i)])
    }
    return value
  }

  /// An unsigned integer of 0, 1, 2, 4 or 8 bytes (ISOBMFF's variable-width fields).
  func unsigned(_ offset: Int, width: Int) -> Int? {
    switch width {
    case 0: return 0
    case 1: return u8(offset).map(Int.init)
    case 2: return u16(offset)
    case 4: return u32(offset)
    case 8: return u64(offset).flatMap { $0 <= UInt64(Int.max) ? Int($0) : nil }
    default: return nil
    }
  }

  func starts(with prefix: [UInt8], at offset: Int = 0) -> Bool {
    guard has(offset, prefix.count) else { return false }
    return bytes[offset..<offset + prefix.count].elementsEqual(prefix)
  }

  func fourCC(_ offset: Int) -> String? {
    guard has(offset, 4) else { return nil }
    return String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
  }

  func slice(_ offset: Int, _ length: Int) -> [UInt8]? {
    guard has(offset, length) else { return nil }
    return Array(bytes[offset..<offset + length])
  }
}
