import Foundation

/// Appends the fields of a binary frame: little-endian integers, doubles by their bits, and
/// strings and blobs as a 4-byte length then the bytes.
///
/// Why not JSON for everything: `JSONEncoder`/`JSONDecoder` spent about 150 µs on each file's
/// result (generic `Codable` machinery on both sides, escaping every character of the text),
/// 11% of the CPU of a whole extracting crawl. The handshake keeps JSON; the per-file traffic
/// uses this.
struct WireWriter {
  private(set) var bytes: [UInt8] = []

  init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

  mutating func byte(_ value: UInt8) { bytes.append(value) }

  mutating func uint32(_ value: UInt32) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  mutating func int64(_ value: Int64) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  mutating func double(_ value: Double) {
    withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
  }

  mutating func string(_ value: String) {
    var value = value
    value.withUTF8 { utf8 in
      uint32(UInt32(utf8.count))
      bytes.append(contentsOf: utf8)
    }
  }

  mutating func blob(_ value: [UInt8]) {
    uint32(UInt32(value.count))
    bytes.append(contentsOf: value)
  }

  /// A count of what follows (array elements); at most `UInt32.max`.
  mutating func count(_ value: Int) { uint32(UInt32(value)) }
}

/// Reads what `WireWriter` wrote. The bytes come from a worker process, which a hostile file
/// may have taken over: every length is checked against what is left, and anything that does
/// not fit is an error, never a crash or a huge allocation.
struct WireReader {
  private let bytes: ArraySlice<UInt8>
  private var position: Int

  init(_ bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
    self.position = bytes.startIndex
  }

  var isAtEnd: Bool { position == bytes.endIndex }

  mutating func byte() throws(WireError) -> UInt8 {
    guard position < bytes.endIndex else { throw .truncated }
    defer { position += 1 }
    return bytes[position]
  }

  private mutating func fixed(_ width: Int) throws(WireError) -> UInt64 {
    guard bytes.endIndex - position >= width else { throw .truncated }
    var value: UInt64 = 0
    for offset in 0..<width {
      value |= UInt64(bytes[position + offset]) << (8 * UInt64(offset))
    }
    position += width
    return value
  }

  mutating func uint32() throws(WireError) -> UInt32 { UInt32(try fixed(4)) }

  mutating func int64() throws(WireError) -> Int64 { Int64(bitPattern: try fixed(8)) }

  mutating func double() throws(WireError) -> Double { Double(bitPattern: try fixed(8)) }

  /// A length or count, no larger than the bytes left (every element takes at least one).
  mutating func count() throws(WireError) -> Int {
    let value = Int(try uint32())
    guard value <= bytes.endIndex - position else { throw .truncated }
    return value
  }

  mutating func blob() throws(WireError) -> ArraySlice<UInt8> {
    let length = try count()
    defer { position += length }
    return bytes[position..<(position + length)]
  }

  /// A string; bytes that are not UTF-8 are repaired (U+FFFD), as `String(decoding:)` does.
  mutating func string() throws(WireError) -> String {
    String(decoding: try blob(), as: UTF8.self)
  }
}

/// A binary frame that does not decode.
enum WireError: Error, Equatable, CustomStringConvertible {
  case truncated
  case unknownTag(String, UInt8)
  case invalid(String)

  var description: String {
    switch self {
    case .truncated: "a field runs past the end of the frame"
    case .unknownTag(let what, let tag): "unknown \(what) tag \(tag)"
    case .invalid(let detail): detail
    }
  }
}
