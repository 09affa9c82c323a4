/// Walks a JPEG's marker segments up to the first frame header (SOF), which carries the real
/// pixel size, picking up the APP1 "Exif" segment on the way. Only segment headers are read
/// (entropy-coded data is never touched), each length is checked, and the walk stops after
/// `maxSegments`, so a file of garbage markers cannot keep it busy.
struct JPEGScanner {
  static let maxSegments = 512
  /// The APP1 signature of an XMP packet (XMP Specification Part 3, §1.1.3).
  static let xmpHeader = Array("http://ns.adobe.com/xap/1.0/\u{0}".utf8)
  let file: BoundedFileReader

  func scan() -> ImageLayout {
    var layout = ImageLayout()
    var offset = 2
    for _ in 0..<Self.maxSegments {
      guard let marker = file.bytes(at: offset, count: 2) else {
        layout.problems.append("JPEG ends before its frame header (at byte \(offset))")
        return layout
      }
      guard marker[0] == 0xFF else {
        layout.problems.append("JPEG marker expected at byte \(offset)")
        return layout
      }
      let code = marker[1]
      switch code {
      case 0xFF:  // fill byte
        offset += 1
        continue
      case 0x01, 0xD0...0xD8:  // markers without a length
        offset += 2
        continue
      case 0xD9, 0xDA:  // end of image, start of scan: no frame header came before
        layout.problems.append("JPEG has no frame header before its image data")
        return layout
      default:
        break
      }
      guard let lengthBytes = file.bytes(at: offset + 2, count: 2),
        let length = ByteView(lengthBytes).u16(0), length >= 2
      else {
        layout.problems.append("JPEG segment at byte \(offset) is cut off")
        return layout
      }
      let payload = offset + 4
      let payloadLength = length - 2
      if Self.isFrameHeader(code) {
        if let frame = file.bytes(at: payload, count: 5) {
          let view = ByteView(frame)
          layout.setSize(view.u16(3), view.u16(1))
        } else {
          layout.problems.append("JPEG frame header is cut off")
        }
        return layout
      }
      if code == 0xE1, layout.exif == nil, payloadLength > 14,
        let segment = file.bytes(at: payload, count: payloadLength),
        ByteView(segment).starts(with: ExifDocument.header)
      {
        layout.exif = Array(segment[6...])
      }
      if code == 0xE1, layout.xmp == nil, payloadLength > Self.xmpHeader.count,
        let prefix = file.bytes(at: payload, count: Self.xmpHeader.count),
        prefix == Self.xmpHeader
      {
        layout.xmp = file.bytes(
          at: payload + Self.xmpHeader.count, count: payloadLength - Self.xmpHeader.count)
      }
      offset = payload + payloadLength
    }
    layout.problems.append("more than \(Self.maxSegments) JPEG segments before the frame header")
    return layout
  }

  /// SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC), which share the range.
  static func isFrameHeader(_ code: UInt8) -> Bool {
    (0xC0...0xCF).contains(code) && code != 0xC4 && code != 0xC8 && code != 0xCC
  }
}
