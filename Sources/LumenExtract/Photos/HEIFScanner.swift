/// Reads a HEIF/HEIC/AVIF file's `meta` box (ISO/IEC 23008-12): the primary item's `ispe`
/// property gives the real pixel size (for a grid image, the size of the whole picture), and the
/// item of type `Exif`, located through `iloc`, holds the EXIF block. Only the `meta` box and the
/// Exif item's bytes are read; box walks are bounded by their parent's size and by counts.
struct HEIFScanner {
  static let maxTopLevelBoxes = 64
  static let maxMetaBytes = 4 << 20
  static let maxExifBytes = 4 << 20
  static let maxItems = 4096
  let file: BoundedFileReader

  func scan() -> ImageLayout {
    var layout = ImageLayout()
    guard let meta = readMetaBox() else {
      layout.problems.append("HEIF file has no readable meta box")
      return layout
    }
    let view = ByteView(meta)
    // meta is a FullBox: 4 bytes of version and flags before its children.
    let boxes = ISOBMFFBox.children(of: view, from: 4, to: view.count)
    func box(_ type: String) -> ISOBMFFBox? { boxes.first { $0.type == type } }

    let primary = box("pitm").flatMap { primaryItem(view, $0) }
    if let properties = box("iprp") {
      if let size = primarySize(view, properties, primary: primary) {
        layout.setSize(size.width, size.height)
      }
    }
    if layout.pixelWidth == nil { layout.problems.append("HEIF primary item has no ispe size") }

    guard let iinf = box("iinf"), let exifItem = exifItemID(view, iinf) else { return layout }
    guard let iloc = box("iloc"),
      let block = itemData(view, iloc, item: exifItem, idat: box("idat"))
    else {
      layout.problems.append("HEIF Exif item cannot be located")
      return layout
    }
    // The Exif item starts with a 32-bit offset from its end to the TIFF header (§A.2.1).
    let blockView = ByteView(block)
    guard let skip = blockView.u32(0), skip <= block.count - 4 else {
      layout.problems.append("HEIF Exif item header is damaged")
      return layout
    }
    layout.setExif(Array(block[(4 + skip)...]))
    return layout
  }

  private func readMetaBox() -> [UInt8]? {
    var offset = 0
    for _ in 0..<Self.maxTopLevelBoxes {
      guard let header = file.bytes(at: offset, count: 16) ?? file.bytes(at: offset, count: 8)
      else { return nil }
      let view = ByteView(header)
      guard let size32 = view.u32(0), let type = view.fourCC(4) else { return nil }
      var headerSize = 8
      var size = size32
      if size32 == 1 {
        guard let large = view.u64(8), large <= UInt64(Int.max) else { return nil }
        size = Int(large)
        headerSize = 16
      } else if size32 == 0 {
        size = file.fileSize - offset
      }
      guard size >= headerSize else { return nil }
      if type == "meta" {
        guard size - headerSize <= Self.maxMetaBytes else { return nil }
        return file.bytes(at: offset + headerSize, count: size - headerSize)
      }
      offset += size
    }
    return nil
  }

  private func primaryItem(_ view: ByteView, _ pitm: ISOBMFFBox) -> Int? {
    guard let version = view.u8(pitm.payload) else { return nil }
    return version == 0 ? view.u16(pitm.payload + 4) : view.u32(pitm.payload + 4)
  }

  /// The `ispe` associated with the primary item in `ipma`; without a primary item, the
  /// largest `ispe` (some minimal writers omit `pitm`).
  private func primarySize(_ view: ByteView, _ iprp: ISOBMFFBox, primary: Int?) -> (
    width: Int, height: Int
  )? {
    let children = ISOBMFFBox.children(of: view, from: iprp.payload, to: iprp.end)
    guard let ipco = children.first(where: { $0.type == "ipco" }) else { return nil }
    let properties = ISOBMFFBox.children(of: view, from: ipco.payload, to: ipco.end)
    func size(_ box: ISOBMFFBox) -> (width: Int, height: Int)? {
      guard box.type == "ispe", let w = view.u32(box.payload + 4), let h = view.u32(box.payload + 8)
      else { return nil }
      return (w, h)
    }
    if let primary, let ipma = children.first(where: { $0.type == "ipma" }) {
      for index in associations(view, ipma, item: primary) {
        if index >= 1, index <= properties.count, let found = size(properties[index - 1]) {
          return found
        }
      }
    }
    return properties.compactMap(size).max { $0.width * $0.height < $1.width * $1.height }
  }

  /// 1-based property indices associated with `item` (§8.11.14 ItemPropertyAssociation).
  private func associations(_ view: ByteView, _ ipma: ISOBMFFBox, item: Int) -> [Int] {
    guard let version = view.u8(ipma.payload), let flags = view.u24(ipma.payload + 1),
      let count = view.u32(ipma.payload + 4)
    else { return [] }
    var offset = ipma.payload + 8
    for _ in 0..<min(count, Self.maxItems) {
      let idWidth = version < 1 ? 2 : 4
      guard let id = view.unsigned(offset, width: idWidth),
        let n = view.u8(offset + idWidth)
      else { return [] }
      offset += idWidth + 1
      let entryWidth = flags & 1 == 1 ? 2 : 1
      if id == item {
        return (0..<Int(n)).compactMap { i in
          view.unsigned(offset + i * entryWidth, width: entryWidth).map {
            entryWidth == 2 ? $0 & 0x7FFF : $0 & 0x7F
          }
        }
      }
      offset += Int(n) * entryWidth
      guard offset <= ipma.end else { return [] }
    }
    return []
  }

  /// The ID of the first item of type `Exif` in `iinf` (ItemInfoEntry version 2 or 3).
  private func exifItemID(_ view: ByteView, _ iinf: ISOBMFFBox) -> Int? {
    guard let version = view.u8(iinf.payload) else { return nil }
    let start = iinf.payload + 4 + (version == 0 ? 2 : 4)
    for infe in ISOBMFFBox.children(of: view, from: start, to: iinf.end, limit: Self.maxItems)
    where infe.type == "infe" {
      guard let entryVersion = view.u8(infe.payload), entryVersion >= 2 else { continue }
      let idWidth = entryVersion == 2 ? 2 : 4
      guard let id = view.unsigned(infe.payload + 4, width: idWidth),
        let type = view.fourCC(infe.payload + 4 + idWidth + 2)
      else { continue }
      if type == "Exif" { return id }
    }
    return nil
  }

  /// The bytes of `item`, from its `iloc` extents: in the file (construction method 0) or in
  /// the `idat` box (method 1). Items built from other items (method 2) are not supported.
  private func itemData(_ view: ByteView, _ iloc: ISOBMFFBox, item: Int, idat: ISOBMFFBox?)
    -> [UInt8]?
  {
    var offset = iloc.payload
    guard let version = view.u8(offset), let sizes = view.u16(offset + 4) else { return nil }
    let offsetSize = sizes >> 12
    let lengthSize = (sizes >> 8) & 0xF
    let baseOffsetSize = (sizes >> 4) & 0xF
    let indexSize = version >= 1 ? sizes & 0xF : 0
    offset += 6
    let countWidth = version < 2 ? 2 : 4
    guard let itemCount = view.unsigned(offset, width: countWidth) else { return nil }
    offset += countWidth
    let idWidth = version < 2 ? 2 : 4
    for _ in 0..<min(itemCount, Self.maxItems) {
      guard let id = view.unsigned(offset, width: idWidth) else { return nil }
      offset += idWidth
      var method = 0
      if version >= 1 {
        guard let field = view.u16(offset) else { return nil }
        method = field & 0xF
        offset += 2
      }
      offset += 2  // data_reference_index
      guard let base = view.unsigned(offset, width: baseOffsetSize),
        let extentCount = view.u16(offset + baseOffsetSize)
      else { return nil }
      offset += baseOffsetSize + 2
      var extents: [(Int, Int)] = []
      for _ in 0..<extentCount {
        offset += indexSize
        guard let extentOffset = view.unsigned(offset, width: offsetSize),
          let extentLength = view.unsigned(offset + offsetSize, width: lengthSize)
        else { return nil }
        offset += offsetSize + lengthSize
        extents.append((extentOffset, extentLength))
      }
      guard id == item else { continue }
      return read(extents, base: base, method: method, view: view, idat: idat)
    }
    return nil
  }

  private func read(
    _ extents: [(Int, Int)], base: Int, method: Int, view: ByteView, idat: ISOBMFFBox?
  ) -> [UInt8]? {
    var data: [UInt8] = []
    for (extentOffset, length) in extents {
      guard length > 0, data.count + length <= Self.maxExifBytes else { return nil }
      let (start, overflow) = base.addingReportingOverflow(extentOffset)
      guard !overflow else { return nil }
      switch method {
      case 0:
        guard let bytes = file.bytes(at: start, count: length) else { return nil }
        data += bytes
      case 1:
        guard let idat, start <= idat.payloadLength, length <= idat.payloadLength - start,
          let bytes = view.slice(idat.payload + start, length)
        else { return nil }
        data += bytes
      default:
        return nil
      }
    }
    return data.isEmpty ? nil : data
  }
}
