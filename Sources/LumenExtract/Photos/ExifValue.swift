import CExif
import Foundation

/// The value of one EXIF entry, copied out of libexif, decoded with libexif's byte-order helpers.
struct ExifValue {
  let format: ExifFormat
  let bytes: [UInt8]
  let count: Int
  let byteOrder: ExifByteOrder

  /// The `index`th component as a number, for every numeric EXIF format; nil when it is not a
  /// number or a rational has a zero denominator.
  func number(_ index: Int = 0) -> Double? {
    guard index >= 0, index < count else { return nil }
    let unit = Int(exif_format_get_size(format))
    return bytes.withUnsafeBufferPointer { buffer -> Double? in
      guard let base = buffer.baseAddress, (index + 1) * unit <= buffer.count else { return nil }
      let at = base + index * unit
      switch format {
      case EXIF_FORMAT_BYTE, EXIF_FORMAT_UNDEFINED: return Double(at.pointee)
      case EXIF_FORMAT_SBYTE: return Double(Int8(bitPattern: at.pointee))
      case EXIF_FORMAT_SHORT: return Double(exif_get_short(at, byteOrder))
      case EXIF_FORMAT_SSHORT: return Double(exif_get_sshort(at, byteOrder))
      case EXIF_FORMAT_LONG: return Double(exif_get_long(at, byteOrder))
      case EXIF_FORMAT_SLONG: return Double(exif_get_slong(at, byteOrder))
      case EXIF_FORMAT_RATIONAL:
        let r = exif_get_rational(at, byteOrder)
        return r.denominator == 0 ? nil : Double(r.numerator) / Double(r.denominator)
      case EXIF_FORMAT_SRATIONAL:
        let r = exif_get_srational(at, byteOrder)
        return r.denominator == 0 ? nil : Double(r.numerator) / Double(r.denominator)
      case EXIF_FORMAT_FLOAT:
        return Double(Float(bitPattern: UInt32(exif_get_long(at, byteOrder))))
      case EXIF_FORMAT_DOUBLE:
        let high = UInt64(exif_get_long(at, byteOrder))
        let low = UInt64(exif_get_long(at + 4, byteOrder))
        let bits = byteOrder == EXIF_BYTE_ORDER_MOTOROLA ? high << 32 | low : low << 32 | high
        return Double(bitPattern: bits)
      default: return nil
      }
    }
  }

  /// ASCII text up to the first NUL, trimmed; nil when empty. Many writers put UTF-8 there, so
  /// that is tried first; anything else is read as Latin-1 rather than dropped.
  var text: String? {
    guard
      format == EXIF_FORMAT_ASCII || format == EXIF_FORMAT_UNDEFINED
        || format == EXIF_FORMAT_BYTE
    else { return nil }
    let end = bytes.firstIndex(of: 0) ?? bytes.count
    let raw = bytes[..<end]
    let decoded =
      String(validating: raw, as: UTF8.self)
      ?? String(String.UnicodeScalarView(raw.map { Unicode.Scalar($0) }))
    let trimmed = decoded.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.isEmpty ? nil : trimmed
  }
}
