/// Walks a TIFF structure's directories: IFD0 and its chain, SubIFDs, and the EXIF, GPS and
/// interoperability IFDs. Every offset is checked against the source, every directory is visited
/// once (an IFD that points back to itself or to an earlier one cannot loop), and the number of
/// directories and entries is capped, so a hostile file costs at most a few hundred small reads.
struct TIFFDirectoryWalker {
  static let maxDirectories = 32
  static let maxEntries = 1024
  static let maxSubImages = 16

  let source: TIFFSource

  enum Tag {
    static let newSubfileType = 0x00FE
    static let imageWidth = 0x0100
    static let imageLength = 0x0101
    static let subIFDs = 0x014A
    static let exifIFD = 0x8769
    static let gpsIFD = 0x8825
    static let interoperabilityIFD = 0xA005
  }

  /// The layout, or nil when the source does not start with a TIFF header.
  func walk() -> TIFFLayout? {
    guard let header = source.read(0, 8) else { return nil }
    let bigEndian: Bool
    switch (header[0], header[1]) {
    case (0x49, 0x49): bigEndian = false
    case (0x4D, 0x4D): bigEndian = true
    default: return nil
    }
    let view = ByteView(header, bigEndian: bigEndian)
    guard view.u16(2) == 42, let first = view.u32(4) else { return nil }

    var layout = TIFFLayout(bigEndian: bigEndian)
    var visited = Set<Int>()
    var queue: [(offset: Int, kind: TIFFLayout.Kind)] = [(first, .image(index: 0))]
    while !queue.isEmpty {
      let (offset, kind) = queue.removeFirst()
      guard offset != 0 else { continue }
      guard layout.directories.count < Self.maxDirectories else {
        layout.problems.append("more than \(Self.maxDirectories) TIFF directories; rest ignored")
        break
      }
      guard visited.insert(offset).inserted else {
        layout.problems.append("TIFF directory at \(offset) is referenced twice (a loop)")
        continue
      }
      guard
        let (directory, next) = readDirectory(
          at: offset, kind: kind, bigEndian: bigEndian,
          problems: &layout.problems)
      else { continue }
      layout.directories.append(directory)
      if case .image(let index) = kind, next != 0 {
        queue.append((next, .image(index: index + 1)))
      }
      for (tag, childKind) in [
        (Tag.exifIFD, TIFFLayout.Kind.exif), (Tag.gpsIFD, .gps),
        (Tag.interoperabilityIFD, .interoperability),
      ] {
        if let entry = directory.entry(tag), let child = unsigned(entry, 0, bigEndian) {
          queue.append((child, childKind))
        }
      }
      if let entry = directory.entry(Tag.subIFDs) {
        for index in 0..<min(entry.count, Self.maxSubImages) {
          if let child = unsigned(entry, index, bigEndian) { queue.append((child, .subImage)) }
        }
      }
    }
    return layout
  }

  /// The main image's size: the first full-resolution image (NewSubfileType bit 0 clear) in
  /// IFD0, its SubIFDs, then the chain; a DNG's IFD0 is only a preview.
  func mainImageSize(_ layout: TIFFLayout) -> (width: Int, height: Int)? {
    var candidates: [(width: Int, height: Int, reduced: Bool)] = []
    let ordered =
      layout.directories.filter { $0.kind == .image(index: 0) }
      + layout.directories.filter { $0.kind == .subImage }
      + layout.directories.filter {
        if case .image(let index) = $0.kind { index > 0 } else { false }
      }
    for directory in ordered {
      guard let widthEntry = directory.entry(Tag.imageWidth),
        let heightEntry = directory.entry(Tag.imageLength),
        let width = unsigned(widthEntry, 0, layout.bigEndian),
        let height = unsigned(heightEntry, 0, layout.bigEndian), width > 0, height > 0
      else { continue }
      let subfileType =
        directory.entry(Tag.newSubfileType)
        .flatMap { unsigned($0, 0, layout.bigEndian) } ?? 0
      candidates.append((width, height, subfileType & 1 == 1))
    }
    if let full = candidates.first(where: { !$0.reduced }) { return (full.width, full.height) }
    return candidates.max { $0.width * $0.height < $1.width * $1.height }
      .map { ($0.width, $0.height) }
  }

  private func readDirectory(
    at offset: Int, kind: TIFFLayout.Kind, bigEndian: Bool, problems: inout [String]
  ) -> (TIFFLayout.Directory, next: Int)? {
    guard let countBytes = source.read(offset, 2),
      let count = ByteView(countBytes, bigEndian: bigEndian).u16(0)
    else {
      problems.append("TIFF directory offset \(offset) lies outside the file")
      return nil
    }
    guard count <= Self.maxEntries else {
      problems.append("TIFF directory at \(offset) claims \(count) entries; ignored")
      return nil
    }
    guard let body = source.read(offset + 2, 12 * count + 4) else {
      problems.append("TIFF directory at \(offset) is cut off")
      return nil
    }
    let view = ByteView(body, bigEndian: bigEndian)
    var entries: [TIFFLayout.Entry] = []
    entries.reserveCapacity(count)
    for index in 0..<count {
      let at = 12 * index
      guard let tag = view.u16(at), let type = view.u16(at + 2), let n = view.u32(at + 4),
        let pointer = view.u32(at + 8)
      else { break }
      let byteSize = TIFFLayout.typeSize(type).flatMap { size -> Int? in
        let (total, overflow) = size.multipliedReportingOverflow(by: n)
        return overflow ? nil : total
      }
      let valueOffset = (byteSize ?? 0) > 4 ? pointer : offset + 2 + at + 8
      if let byteSize, byteSize > 4, !source.contains(valueOffset, byteSize) {
        problems.append(
          "TIFF tag 0x\(String(tag, radix: 16)) points outside the file; its value is ignored")
        continue
      }
      entries.append(
        TIFFLayout.Entry(
          tag: tag, type: type, count: n, byteSize: byteSize, valueOffset: valueOffset))
    }
    let next = view.u32(12 * count) ?? 0
    return (TIFFLayout.Directory(kind: kind, offset: offset, entries: entries), next)
  }

  /// The `index`th value of a SHORT, LONG or IFD entry.
  func unsigned(_ entry: TIFFLayout.Entry, _ index: Int, _ bigEndian: Bool) -> Int? {
    guard index >= 0, index < entry.count else { return nil }
    let width: Int
    switch entry.type {
    case 3: width = 2
    case 4, 13: width = 4
    case 1: width = 1
    default: return nil
    }
    guard let bytes = source.read(entry.valueOffset + index * width, width) else { return nil }
    return ByteView(bytes, bigEndian: bigEndian).unsigned(0, width: width)
  }
}

extension TIFFSource {
  func contains(_ offset: Int, _ count: Int) -> Bool {
    offset >= 0 && count >= 0 && offset <= size && count <= size - offset
  }
}
