import Foundation

/// One value of an attribute. Multi-valued attributes hold several, in order.
public enum AttributeValue: Sendable, Hashable, Codable, CustomStringConvertible {
  case text(String)
  case number(Double)
  case date(Date)
  case bool(Bool)

  public var valueType: AttributeValueType {
    switch self {
    case .text: .text
    case .number: .number
    case .date: .date
    case .bool: .bool
    }
  }

  public var text: String? { if case .text(let value) = self { value } else { nil } }
  public var number: Double? {
    switch self {
    case .number(let value): value
    case .bool(let value): value ? 1 : 0
    default: nil
    }
  }
  public var date: Date? { if case .date(let value) = self { value } else { nil } }
  public var bool: Bool? {
    switch self {
    case .bool(let value): value
    case .number(let value): value != 0
    default: nil
    }
  }

  /// The value converted to `type`, when that is lossless enough to be meaningful (a whole
  /// number for a bool, an ISO-8601 string or Apple-epoch seconds for a date).
  public func converted(to type: AttributeValueType) -> AttributeValue? {
    if valueType == type { return self }
    switch (self, type) {
    case (.number(let n), .bool): return .bool(n != 0)
    case (.bool(let b), .number): return .number(b ? 1 : 0)
    case (.number(let n), .date): return .date(Date(timeIntervalSinceReferenceDate: n))
    case (.date(let d), .number): return .number(d.timeIntervalSinceReferenceDate)
    case (.text(let s), .date): return ISO8601Dates.parse(s).map(AttributeValue.date)
    case (.text(let s), .number): return Double(s).map(AttributeValue.number)
    case (.text(let s), .bool):
      switch s.lowercased() {
      case "true", "yes", "1": return .bool(true)
      case "false", "no", "0": return .bool(false)
      default: return nil
      }
    case (.number(let n), .text): return .text(Self.format(n))
    case (.date(let d), .text): return .text(ISO8601Dates.format(d))
    case (.bool(let b), .text): return .text(b ? "true" : "false")
    default: return nil
    }
  }

  public var description: String {
    switch self {
    case .text(let s): s
    case .number(let n): Self.format(n)
    case .date(let d): ISO8601Dates.format(d)
    case .bool(let b): b ? "true" : "false"
    }
  }

  /// Whole numbers print without a fraction, as mdls does.
  public static func format(_ number: Double) -> String {
    if number.isFinite, number == number.rounded(), abs(number) < 1e15 {
      return String(Int64(number))
    }
    return String(number)
  }
}
