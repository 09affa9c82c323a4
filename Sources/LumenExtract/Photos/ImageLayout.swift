/// What a format scanner found in an image file before any EXIF decoding: the real pixel size
/// from the image data's own header, the EXIF block (a TIFF structure) if there is one, and what
/// was wrong on the way.
struct ImageLayout {
  var pixelWidth: Int?
  var pixelHeight: Int?
  /// A TIFF structure ("II*\0…" or "MM\0*…") small enough for libexif (≤ 64 KiB).
  var exif: [UInt8]?
  /// An XMP packet (RDF/XML), when the file has one.
  var xmp: [UInt8]?
  var problems: [String] = []

  mutating func setSize(_ width: Int?, _ height: Int?) {
    guard let width, let height, width > 0, height > 0 else { return }
    pixelWidth = width
    pixelHeight = height
  }

  /// Takes an EXIF block found inside a container (PNG eXIf, WebP EXIF, HEIF Exif item). Some
  /// writers keep JPEG's "Exif\0\0" in front; a block larger than libexif reads is compacted.
  mutating func setExif(_ block: [UInt8]) {
    var tiff = block
    if ByteView(tiff).starts(with: ExifDocument.header) { tiff.removeFirst(6) }
    guard tiff.count >= 8 else {
      problems.append("EXIF block too short")
      return
    }
    if tiff.count <= TIFFRelocator.byteLimit {
      exif = tiff
      return
    }
    let source = TIFFSource(bytes: tiff)
    guard let layout = TIFFDirectoryWalker(source: source).walk() else {
      problems.append("EXIF block is not a TIFF structure")
      return
    }
    problems += layout.problems
    exif = TIFFRelocator(source: source, layout: layout).compact()
  }
}
