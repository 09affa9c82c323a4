/// Where a TIFF structure's bytes come from: a file read through `BoundedFileReader` (TIFF, DNG,
/// where offsets may point anywhere in a large file) or a blob already in memory (EXIF from PNG,
/// WebP or HEIF). Offsets are relative to the TIFF header, as TIFF's own offsets are.
struct TIFFSource {
  /// How many bytes after the header may be read.
  let size: Int
  private let reader: (Int, Int) -> [UInt8]?

  init(file: BoundedFileReader, base: Int = 0) {
    size = max(0, file.limit - base)
    reader = { offset, count in file.bytes(at: base + offset, count: count) }
  }

  init(bytes: [UInt8]) {
    size = bytes.count
    let view = ByteView(bytes)
    reader = { offset, count in view.slice(offset, count) }
  }

  /// `count` bytes at `offset`, or nil when they are not all there.
  func read(_ offset: Int, _ count: Int) -> [UInt8]? {
    guard offset >= 0, count >= 0, offset <= size, count <= size - offset else { return nil }
    return reader(offset, count)
  }
}
