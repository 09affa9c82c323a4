import Foundation
import LumenModel

/// Readings of tag text whose format varies between tag systems.
enum TagValues {
  /// The track number in "2", "02" or "2/3" (ID3's TRCK, MP4's trkn as TagLib renders it).
  static func leadingInteger(_ text: String) -> Int? {
    let digits = text.trimmingCharacters(in: .whitespaces).prefix { $0.isASCII && $0.isNumber }
    guard let value = Int(digits), value > 0 else { return nil }
    return value
  }

  /// A recording date as tags write it: "2004", "2004-11-02", "2004-11-02T10:00", ID3v2.4's
  /// timestamps, and the "2008.05.25" or "2008/05/25" some taggers use. Dates in tags carry no
  /// time zone, so they are read in the local zone, like EXIF dates.
  static func date(_ text: String, timeZone: TimeZone = .current) -> Date? {
    var normalized = text.trimmingCharacters(in: .whitespaces)
    let utf8 = Array(normalized.utf8)
    // "YYYY.MM.DD" and "YYYY/MM/DD": the separators after the year and the month become "-".
    if utf8.count >= 7, utf8[4] == UInt8(ascii: ".") || utf8[4] == UInt8(ascii: "/") {
      var bytes = utf8
      bytes[4] = UInt8(ascii: "-")
      if bytes.count >= 10, bytes[7] == utf8[4] { bytes[7] = UInt8(ascii: "-") }
      normalized = String(decoding: bytes, as: UTF8.self)
    }
    return ISO8601Dates.parse(normalized, timeZone: timeZone)
  }
}
