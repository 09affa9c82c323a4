import Foundation
import LumenModel

/// PDF date strings (`D:20220403193102+02'00'`, ISO 32000 §7.9.4): every part after the year is
/// optional, and real files add oddities such as `Z00'00'`, a missing `D:` or trailing junk.
/// Without a zone the time is taken as local, as ISO8601Dates does for zoneless times.
enum PDFDate {
  static func parse(_ raw: String, timeZone: TimeZone = .current) -> Date? {
    var text = Substring(raw.trimmingWhitespace())
    if text.hasPrefix("D:") { text = text.dropFirst(2) }
    let bytes = Array(text.utf8)
    if bytes.count > 4, bytes[4] == UInt8(ascii: "-") {
      // Some producers write ISO 8601 (XMP's form) into the Info dictionary.
      return ISO8601Dates.parse(String(text), timeZone: timeZone)
    }
    var index = 0
    func number(_ width: Int) -> Int? {
      guard index + width <= bytes.count else { return nil }
      var value = 0
      for byte in bytes[index..<index + width] {
        guard (48...57).contains(byte) else { return nil }
        value = value * 10 + Int(byte - 48)
      }
      index += width
      return value
    }
    guard let year = number(4) else { return nil }
    var components = DateComponents(year: year, month: 1, day: 1, hour: 0, minute: 0, second: 0)
    if let month = number(2) { components.month = month }
    if let day = number(2) { components.day = day }
    if let hour = number(2) { components.hour = hour }
    if let minute = number(2) { components.minute = minute }
    if let second = number(2) { components.second = second }
    var zone = timeZone
    if index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "Z"):
        zone = TimeZone(secondsFromGMT: 0)!
      case UInt8(ascii: "+"), UInt8(ascii: "-"):
        let sign = bytes[index] == UInt8(ascii: "+") ? 1 : -1
        index += 1
        if let hours = number(2) {
          if index < bytes.count, bytes[index] == UInt8(ascii: "'") { index += 1 }
          let minutes = number(2) ?? 0
          if hours <= 23, minutes <= 59,
            let offset = TimeZone(secondsFromGMT: sign * (hours * 3600 + minutes * 60))
          {
            zone = offset
          }
        }
      case UInt8(ascii: "."):
        break  // fractional seconds (a non-standard habit): ignored
      default:
        // Trailing garbage after the digits: the date itself is still usable, as in poppler.
        break
      }
    }
    guard let month = components.month, (1...12).contains(month),
      let day = components.day, (1...31).contains(day),
      (0...23).contains(components.hour ?? 0), (0...59).contains(components.minute ?? 0),
      (0...60).contains(components.second ?? 0)
    else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    return calendar.date(from: components)
  }
}
