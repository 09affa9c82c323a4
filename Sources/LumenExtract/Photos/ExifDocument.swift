import CExif
import Foundation

/// One libexif `ExifData`, loaded faithfully and released in `deinit`.
///
/// libexif's default `FOLLOW_SPECIFICATION` option adds the tags the EXIF standard calls
/// mandatory (resolution, ExifVersion, ColorSpace…) with invented values, and
/// `IGNORE_UNKNOWN_TAGS` drops tags its table does not list for an IFD; an index must record
/// what the file says, so both are off.
final class ExifDocument {
  private let data: UnsafeMutablePointer<ExifData>
  let byteOrder: ExifByteOrder

  /// The "Exif\0\0" header libexif expects in front of the TIFF structure, as in a JPEG APP1.
  static let header: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]

  /// Loads a TIFF structure (starting "II*\0" or "MM\0*"); nil when libexif finds no directory.
  init?(tiff: [UInt8]) {
    guard tiff.count >= 8, let data = exif_data_new() else { return nil }
    exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
    exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
    let blob = Self.header + tiff
    blob.withUnsafeBufferPointer { buffer in
      exif_data_load_data(data, buffer.baseAddress, UInt32(min(buffer.count, Int(UInt32.max))))
    }
    self.data = data
    self.byteOrder = exif_data_get_byte_order(data)
    guard hasEntries else { return nil }
  }

  deinit { exif_data_unref(data) }

  private var contents: [UnsafeMutablePointer<ExifContent>?] {
    withUnsafeBytes(of: data.pointee.ifd) {
      Array($0.bindMemory(to: UnsafeMutablePointer<ExifContent>?.self))
    }
  }

  private var hasEntries: Bool {
    contents.contains { ($0?.pointee.count ?? 0) > 0 }
  }

  func entry(_ tag: UInt32, in ifd: ExifIfd) -> ExifValue? {
    let all = contents
    let index = Int(ifd.rawValue)
    guard index < all.count, let content = all[index],
      let entry = exif_content_get_entry(content, ExifTag(rawValue: tag)),
      let bytes = entry.pointee.data
    else { return nil }
    let format = entry.pointee.format
    let components = Int(entry.pointee.components)
    let size = Int(entry.pointee.size)
    let unit = Int(exif_format_get_size(format))
    // libexif sizes `data` from the components; check anyway rather than trust it.
    let usable = unit > 0 ? min(components, size / unit) : 0
    return ExifValue(
      format: format, bytes: Array(UnsafeBufferPointer(start: bytes, count: size)),
      count: usable, byteOrder: byteOrder)
  }
}
