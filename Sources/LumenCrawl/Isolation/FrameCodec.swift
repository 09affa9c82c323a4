import Foundation
import Glibc

/// The wire format between the indexer and its extraction workers: each message is a 4-byte
/// little-endian length followed by that many bytes of payload (JSON for the worker's hello,
/// the binary form of `WorkerWire` for jobs and what workers send back). Length-prefixed rather than
/// line-based so that a path or a title may hold any byte, and bounded so that a worker gone
/// wrong cannot make the indexer allocate gigabytes.
enum FrameCodec {
  /// Larger frames are a protocol error. Generous: `textContent` is cut at the rule's
  /// `MaxTextBytes` (1 MiB by default) and JSON at most doubles it.
  static let maximumPayload = 256 << 20

  static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
    frame(Array(try JSONEncoder().encode(value)))
  }

  /// A frame around a payload already encoded (the binary per-file frames, `WorkerWire`).
  static func frame(_ payload: [UInt8]) -> [UInt8] {
    var frame = [UInt8]()
    frame.reserveCapacity(4 + payload.count)
    withUnsafeBytes(of: UInt32(payload.count).littleEndian) { frame.append(contentsOf: $0) }
    frame.append(contentsOf: payload)
    return frame
  }

  static func decode<T: Decodable>(_ type: T.Type, from payload: ArraySlice<UInt8>) throws -> T {
    try JSONDecoder().decode(type, from: Data(payload))
  }

  /// The payload length announced by a 4-byte header.
  static func length(of header: ArraySlice<UInt8>) -> Int {
    var value: UInt32 = 0
    for (shift, byte) in header.prefix(4).enumerated() { value |= UInt32(byte) << (8 * shift) }
    return Int(value)
  }

  /// Writes all of `bytes`, retrying short writes and EINTR.
  static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws(FrameError) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { buffer in
        write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        throw .io("write", errno)
      }
      offset += written
    }
  }

  /// Reads one whole frame with blocking reads (the worker's side); nil at end of input.
  static func readFrame(from descriptor: Int32) throws(FrameError) -> [UInt8]? {
    guard let header = try readExactly(4, from: descriptor, endOK: true) else { return nil }
    let count = length(of: header[...])
    guard count <= maximumPayload else { throw .tooLarge(count) }
    return try readExactly(count, from: descriptor, endOK: false)
  }

  private static func readExactly(_ count: Int, from descriptor: Int32, endOK: Bool)
    throws(FrameError) -> [UInt8]?
  {
    var buffer = [UInt8](repeating: 0, count: count)
    var offset = 0
    while offset < count {
      let got = buffer.withUnsafeMutableBytes { raw in
        read(descriptor, raw.baseAddress! + offset, count - offset)
      }
      if got < 0 {
        if errno == EINTR { continue }
        throw .io("read", errno)
      }
      if got == 0 {
        if offset == 0 && endOK { return nil }
        throw .truncated
      }
      offset += got
    }
    return buffer
  }
}
