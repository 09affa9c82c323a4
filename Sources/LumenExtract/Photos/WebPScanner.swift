/// Walks a WebP file's RIFF chunks: the canvas size from VP8X, or the frame size from a simple
/// file's VP8 (lossy) or VP8L (lossless) bitstream header, and the EXIF chunk.
struct WebPScanner {
  static let maxChunks = 256
  static let maxExifBytes = 4 << 20
  let file: BoundedFileReader

  func scan() -> ImageLayout {
    var layout = ImageLayout()
    var offset = 12
    for _ in 0..<Self.maxChunks {
      guard let header = file.bytes(at: offset, count: 8) else { break }
      let view = ByteView(header, bigEndian: false)
      guard let type = view.fourCC(0), let length = view.u32(4) else { break }
      let data = offset + 8
      switch type {
      case "VP8X":
        if let canvas = file.bytes(at: data + 4, count: 6) {
          let size = ByteView(canvas, bigEndian: false)
          layout.setSize(size.u24(0).map { $0 + 1 }, size.u24(3).map { $0 + 1 })
        }
      case "VP8 ":
        if layout.pixelWidth == nil, let frame = file.bytes(at: data, count: 10),
          ByteView(frame).starts(with: [0x9D, 0x01, 0x2A], at: 3)
        {
          let size = ByteView(frame, bigEndian: false)
          layout.setSize(size.u16(6).map { $0 & 0x3FFF }, size.u16(8).map { $0 & 0x3FFF })
        }
      case "VP8L":
        if layout.pixelWidth == nil, let frame = file.bytes(at: data, count: 5), frame[0] == 0x2F,
          let bits = ByteView(frame, bigEndian: false).u32(1)
        {
          layout.setSize((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        }
      case "EXIF":
        if length <= Self.maxExifBytes, let block = file.bytes(at: data, count: length) {
          layout.setExif(block)
        } else {
          layout.problems.append("WebP EXIF chunk is cut off or too large")
        }
      case "XMP ":
        if length <= PhotoXMP.maxBytes { layout.xmp = file.bytes(at: data, count: length) }
      default:
        break
      }
      offset = data + length + (length & 1)
    }
    if layout.pixelWidth == nil { layout.problems.append("WebP has no readable frame header") }
    return layout
  }
}
