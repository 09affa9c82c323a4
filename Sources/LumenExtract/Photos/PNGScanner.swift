/// Reads a PNG's IHDR (the real size) and its eXIf chunk. PNG (Third Edition, 2023) places
/// eXIf before the first IDAT, so the walk stops there instead of stepping through every
/// image-data chunk of a large file.
struct PNGScanner {
  static let maxChunks = 1024
  static let maxExifBytes = 4 << 20
  static let xmpKeyword = Array("XML:com.adobe.xmp".utf8)
  let file: BoundedFileReader

  func scan() -> ImageLayout {
    var layout = ImageLayout()
    var offset = 8
    for index in 0..<Self.maxChunks {
      guard let header = file.bytes(at: offset, count: 8) else {
        if index == 0 { layout.problems.append("PNG has no IHDR chunk") }
        return layout
      }
      let view = ByteView(header)
      guard let length = view.u32(0), let type = view.fourCC(4) else { return layout }
      if index == 0 {
        guard type == "IHDR", let ihdr = file.bytes(at: offset + 8, count: 8) else {
          layout.problems.append("PNG does not start with an IHDR chunk")
          return layout
        }
        let size = ByteView(ihdr)
        layout.setSize(size.u32(0), size.u32(4))
      }
      switch type {
      case "eXIf":
        if length <= Self.maxExifBytes, let block = file.bytes(at: offset + 8, count: length) {
          layout.setExif(block)
        } else {
          layout.problems.append("PNG eXIf chunk is cut off or too large")
        }
        return layout
      case "iTXt" where layout.xmp == nil && length <= PhotoXMP.maxBytes:
        // XMP lives in an uncompressed iTXt chunk with the keyword "XML:com.adobe.xmp".
        if let chunk = file.bytes(at: offset + 8, count: length),
          ByteView(chunk).starts(with: Self.xmpKeyword + [0, 0])
        {
          var index = Self.xmpKeyword.count + 3  // keyword, NUL, compression flag and method
          for _ in 0..<2 {  // language tag and translated keyword, each NUL-terminated
            while index < chunk.count, chunk[index] != 0 { index += 1 }
            index += 1
          }
          if index < chunk.count { layout.xmp = Array(chunk[index...]) }
        }
        offset += 12 + length
      case "IDAT", "IEND":
        return layout
      default:
        offset += 12 + length
      }
    }
    return layout
  }
}
