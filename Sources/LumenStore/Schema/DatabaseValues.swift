import Foundation
import GRDB
import LumenModel

/// How attribute values are stored: text as TEXT, numbers as REAL (SQLite keeps whole numbers as
/// compact integers in REAL columns), dates as REAL seconds since 2001-01-01 (Apple's epoch, and
/// exactly `Date.timeIntervalSinceReferenceDate`, so a date round-trips bit for bit), booleans as
/// 0 and 1. A NaN has no SQLite representation (it would read back as NULL) and is not stored.
extension AttributeValue {
  var storedValue: DatabaseValue? {
    switch self {
    case .text(let text): return text.databaseValue
    case .number(let number): return number.isNaN ? nil : number.databaseValue
    case .date(let date):
      let seconds = date.timeIntervalSinceReferenceDate
      return seconds.isNaN ? nil : seconds.databaseValue
    case .bool(let flag): return (flag ? 1 : 0).databaseValue
    }
  }

  init?(stored: DatabaseValue, as type: AttributeValueType) {
    switch (type, stored.storage) {
    case (_, .null), (_, .blob): return nil
    case (.text, .string(let text)): self = .text(text)
    case (.text, _): return nil
    case (.number, .double(let number)): self = .number(number)
    case (.number, .int64(let number)): self = .number(Double(number))
    case (.date, .double(let seconds)): self = .date(Date(timeIntervalSinceReferenceDate: seconds))
    case (.date, .int64(let seconds)):
      self = .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
    case (.bool, .int64(let flag)): self = .bool(flag != 0)
    case (.bool, .double(let flag)): self = .bool(flag != 0)
    default: return nil
    }
  }
}
