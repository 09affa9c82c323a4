import Foundation

/// ISO-8601 in the forms people type and files carry: full timestamps with or without fractional
/// seconds and zone, date-only (local midnight), and EXIF's `YYYY:MM:DD HH:MM:SS` (local time).
public enum ISO8601Dates {
  public static func parse(_ text: String, timeZone: TimeZone = .current) -> Date? {
    let s = text.trimmingCharacters(in: .whitespaces)
    guard !s.isEmpty else { return nil }
    let utf8 = Array(s.utf8)
    func digits(_ start: Int, _ count: Int) -> Int? {
      guard start + count <= utf8.count else { return nil }
      var value = 0
      for i in start..<start + count {
        let c = utf8[i]
        guard c >= 48, c <= 57 else { return nil }
        value = value * 10 + Int(c - 48)
      }
      return value
    }
    guard let year = digits(0, 4) else { return nil }
    var components = DateComponents()
    components.year = year
    components.month = 1
    components.day = 1
    var index = 4
    func separator(_ allowed: [UInt8]) -> Bool {
      guard index < utf8.count, allowed.contains(utf8[index]) else { return false }
      index += 1
      return true
    }
    if separator([UInt8(ascii: "-"), UInt8(ascii: ":")]) {
      guard let month = digits(index, 2) else { return nil }
      components.month = month
      index += 2
      if separator([UInt8(ascii: "-"), UInt8(ascii: ":")]) {
        guard let day = digits(index, 2) else { return nil }
        components.day = day
        index += 2
      }
    }
    var zone: TimeZone? = nil
    if separator([UInt8(ascii: "T"), UInt8(ascii: " "), UInt8(ascii: "t")]) {
      guard let hour = digits(index, 2) else { return nil }
      components.hour = hour
      index += 2
      if separator([UInt8(ascii: ":")]) {
        guard let minute = digits(index, 2) else { return nil }
        components.minute = minute
        index += 2
        if separator([UInt8(ascii: ":")]) {
          guard let second = digits(index, 2) else { return nil }
          components.second = second
          index += 2
          if separator([UInt8(ascii: "."), UInt8(ascii: ",")]) {
            var fraction = 0.0
            var scale = 0.1
            while index < utf8.count, utf8[index] >= 48, utf8[index] <= 57 {
              fraction += Double(utf8[index] - 48) * scale
              scale /= 10
              index += 1
            }
            components.nanosecond = Int(fraction * 1e9)
          }
        }
      }
    }
    if index < utf8.count {
      let c = utf8[index]
      if c == UInt8(ascii: "Z") || c == UInt8(ascii: "z") {
        zone = TimeZone(secondsFromGMT: 0)
        index += 1
      } else if c == UInt8(ascii: "+") || c == UInt8(ascii: "-") {
        let sign = c == UInt8(ascii: "+") ? 1 : -1
        index += 1
        guard let hours = digits(index, 2) else { return nil }
        index += 2
        var minutes = 0
        if index < utf8.count, utf8[index] == UInt8(ascii: ":") { index += 1 }
        if let m = digits(index, 2) {
          minutes = m
          index += 2
        }
        zone = TimeZone(secondsFromGMT: sign * (hours * 3600 + minutes * 60))
      }
    }
    guard index == utf8.count else { return nil }
    guard let month = components.month, (1...12).contains(month),
      let day = components.day, (1...31).contains(day),
      (components.hour ?? 0) < 24, (components.minute ?? 0) < 60, (components.second ?? 0) < 61
    else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone ?? timeZone
    return calendar.date(from: components)
  }

  /// UTC with seconds, or with milliseconds when the date has them.
  public static func format(_ date: Date) -> String {
    let utc = TimeZone(secondsFromGMT: 0)!
    let seconds = date.timeIntervalSince1970
    let fractional = seconds != seconds.rounded()
    return date.formatted(
      Date.ISO8601FormatStyle(includingFractionalSeconds: fractional, timeZone: utc))
  }
}
