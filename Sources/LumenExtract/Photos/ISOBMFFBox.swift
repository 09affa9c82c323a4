/// One box of an ISO base media file (ISO/IEC 14496-12 §4.2): its type and where its payload
/// lies, in the coordinates of the buffer or file it was read from.
struct ISOBMFFBox {
  let type: String
  /// Offset of the payload (after size, type and any 64-bit size).
  let payload: Int
  let payloadLength: Int
  var end: Int { payload + payloadLength }

  /// The boxes directly inside `view[start..<end]`, at most `limit` of them. A box whose size
  /// runs past its parent ends the list; a size of 0 means "to the end of the parent".
  static func children(of view: ByteView, from start: Int, to end: Int, limit: Int = 4096)
    -> [ISOBMFFBox]
  {
    var boxes: [ISOBMFFBox] = []
    var offset = start
    let end = min(end, view.count)
    while offset + 8 <= end, boxes.count < limit {
      guard let size32 = view.u32(offset), let type = view.fourCC(offset + 4) else { break }
      var header = 8
      var size = size32
      if size32 == 1 {
        guard let large = view.u64(offset + 8), large <= UInt64(Int.max) else { break }
        size = Int(large)
        header = 16
      } else if size32 == 0 {
        size = end - offset
      }
      guard size >= header, size <= end - offset else { break }
      boxes.append(ISOBMFFBox(type: type, payload: offset + header, payloadLength: size - header))
      offset += size
    }
    return boxes
  }
}
