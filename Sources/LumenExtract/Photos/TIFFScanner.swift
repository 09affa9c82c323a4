/// A TIFF or DNG file: the main image's size from its directories, and the EXIF bytes for
/// libexif — the file's own prefix when everything libexif needs lies in its first 64 KiB (the
/// usual case, and MakerNotes stay intact), else a relocated copy of the directories.
struct TIFFScanner {
  let file: BoundedFileReader
  /// TIFF tag 700, XMLPacket (XMP Specification Part 3, §1.1.4).
  static let xmpTag = 0x02BC

  func scan() -> ImageLayout {
    var layout = ImageLayout()
    let source = TIFFSource(file: file)
    let walker = TIFFDirectoryWalker(source: source)
    guard let tiff = walker.walk() else {
      layout.problems.append("TIFF header is damaged")
      return layout
    }
    layout.problems += tiff.problems
    if let size = walker.mainImageSize(tiff) { layout.setSize(size.width, size.height) }
    if let ifd0 = tiff.first(.image(index: 0)), let entry = ifd0.entry(Self.xmpTag),
      let size = entry.byteSize, size <= PhotoXMP.maxBytes
    {
      layout.xmp = source.read(entry.valueOffset, size)
    }
    let extent = tiff.exifExtent
    if extent <= TIFFRelocator.byteLimit {
      layout.exif = source.read(0, min(extent, source.size))
    } else {
      layout.exif = TIFFRelocator(source: source, layout: tiff).compact()
    }
    return layout
  }
}
