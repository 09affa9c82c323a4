import CZlib
import Foundation
import Glibc
import ZIPFoundation

/// Inflates one compressed zip entry from exactly its compressed bytes.
///
/// ZIPFoundation 0.9.20's inflater on Linux (`Data.decode`) has two faults that a damaged file
/// reaches, both found by bench/fuzz: it inflates until zlib reports the end of the stream,
/// reading on past the entry and, at the end of the file, forever (a deflate stream that never
/// ends hangs it); and it always tells zlib a whole buffer of input is there, so a short last
/// chunk lets zlib read past it. Here the compressed bytes are read first, bounded by the
/// file's size, and inflated with zlib directly (the zlib ZIPFoundation links, through its
/// `CZlib` module): a stream that does not end within them is an error, and the CRC-32 is
/// checked as ZIPFoundation would.
///
/// Where an entry's bytes start is internal to ZIPFoundation: the local header's offset is read
/// through reflection and the header itself is parsed and checked here. When that is not
/// possible (a ZIP64 offset, another library version) `nil` tells the caller to let
/// ZIPFoundation do it.
enum ZipPartInflater {
  /// Reads `count` bytes at `offset` of the archive (a file or bytes in memory).
  typealias RawReader = (_ offset: Int, _ count: Int) -> [UInt8]?

  static func inflate(
    _ entry: Entry, archiveSize: Int, read: RawReader, limit: Int,
    consume: (Data) throws -> Void
  ) throws -> Bool? {
    guard
      let headerOffset = Mirror(reflecting: entry)
        .descendant("centralDirectoryStructure", "relativeOffsetOfLocalHeader") as? UInt32,
      headerOffset != UInt32.max
    else { return nil }
    let start = Int(headerOffset)
    guard let header = read(start, 30), header.count == 30,
      header[0..<4] == [0x50, 0x4B, 0x03, 0x04]
    else { throw InflateError("its local header is missing or damaged") }
    let nameLength = Int(header[26]) | Int(header[27]) << 8
    let extraLength = Int(header[28]) | Int(header[29]) << 8
    let dataOffset = start + 30 + nameLength + extraLength
    let compressedSize = Int(clamping: entry.compressedSize)
    guard dataOffset <= archiveSize, compressedSize <= archiveSize - dataOffset else {
      throw InflateError("its compressed data runs past the end of the file")
    }
    // A deflate stream expands at most ~1032 times; more compressed bytes than that allows
    // for `limit` cannot be a part within it.
    guard compressedSize <= limit else { throw InflateError("it is larger than the limit") }
    guard let compressed = read(dataOffset, compressedSize), compressed.count == compressedSize
    else { throw InflateError("its compressed data cannot be read") }
    let checksum = try inflate(compressed, consume: consume)
    guard checksum == entry.checksum else { throw InflateError("its CRC-32 does not match") }
    return true
  }

  /// Raw deflate (no zlib header), as zip stores it; returns the CRC-32 of the output.
  private static func inflate(_ compressed: [UInt8], consume: (Data) throws -> Void) throws
    -> UInt32
  {
    var stream = z_stream()
    guard
      inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        == Z_OK
    else { throw InflateError("zlib cannot start") }
    defer { inflateEnd(&stream) }
    var output = [UInt8](repeating: 0, count: 64 << 10)
    var checksum = crc32(0, nil, 0)
    try compressed.withUnsafeBufferPointer { input in
      stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
      stream.avail_in = UInt32(input.count)
      while true {
        let status = output.withUnsafeMutableBufferPointer { buffer -> Int32 in
          stream.next_out = buffer.baseAddress
          stream.avail_out = UInt32(buffer.count)
          return CZlib.inflate(&stream, Z_NO_FLUSH)
        }
        let produced = output.count - Int(stream.avail_out)
        if produced > 0 {
          checksum = output.withUnsafeBufferPointer {
            crc32(checksum, $0.baseAddress, UInt32(produced))
          }
          try consume(Data(output[..<produced]))
        }
        switch status {
        case Z_STREAM_END:
          return
        case Z_OK:
          continue
        case Z_BUF_ERROR where stream.avail_in == 0:
          throw InflateError("its deflate stream does not end within its compressed size")
        default:
          throw InflateError("its deflate data is damaged")
        }
      }
    }
    return UInt32(checksum)
  }

  struct InflateError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
}
