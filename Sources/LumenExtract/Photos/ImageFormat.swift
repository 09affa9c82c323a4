/// Image containers told apart by their first bytes. The MIME type the crawler passes decides
/// which rule runs; the bytes decide how the file is read, so a JPEG named .png still works.
enum ImageFormat: String, Sendable {
  case jpeg, png, gif, webp, tiff, heif

  static func sniff(_ head: [UInt8]) -> ImageFormat? {
    let view = ByteView(head)
    if view.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
    if view.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
    if view.starts(with: Array("GIF87a".utf8)) || view.starts(with: Array("GIF89a".utf8)) {
      return .gif
    }
    if view.starts(with: Array("RIFF".utf8)), view.starts(with: Array("WEBP".utf8), at: 8) {
      return .webp
    }
    if view.starts(with: [0x49, 0x49, 0x2A, 0x00]) || view.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
      return .tiff
    }
    if view.fourCC(4) == "ftyp", let brand = view.fourCC(8), heifBrands.contains(brand) {
      return .heif
    }
    if view.fourCC(4) == "ftyp", let size = view.u32(0), size >= 16 {
      // The major brand may be generic; look at the compatible brands too.
      var offset = 16
      while offset + 4 <= min(size, view.count) {
        if let brand = view.fourCC(offset), heifBrands.contains(brand) { return .heif }
        offset += 4
      }
    }
    return nil
  }

  static let heifBrands: Set<String> = [
    "heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif", "avis",
  ]
}
