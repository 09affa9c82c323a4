import Foundation
import LumenModel

/// A JSON value whose objects keep their keys in the order they were built, so `--json` output
/// reads `id`, `path`, then attributes, as a person expects.
enum JSONValue: Encodable, Equatable {
  case string(String)
  case number(Double)
  case bool(Bool)
  case null
  case array([JSONValue])
  case object([(String, JSONValue)])

  static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.string(let a), .string(let b)): a == b
    case (.number(let a), .number(let b)): a == b
    case (.bool(let a), .bool(let b)): a == b
    case (.null, .null): true
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)):
      a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    default: false
    }
  }

  /// A typed attribute value: numbers as numbers, dates as ISO-8601, multi-valued as arrays.
  init(_ values: [AttributeValue], multiValued: Bool) {
    let converted = values.map(JSONValue.init(single:))
    self = multiValued ? .array(converted) : (converted.first ?? .null)
  }

  init(single value: AttributeValue) {
    switch value {
    case .text(let s): self = .string(FaithfulPath.display(s))
    case .number(let n): self = .number(n)
    case .date(let d): self = .string(ISO8601Dates.format(d))
    case .bool(let b): self = .bool(b)
    }
  }

  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  func encode(to encoder: Encoder) throws {
    switch self {
    case .string(let s):
      var container = encoder.singleValueContainer()
      try container.encode(s)
    case .number(let n):
      var container = encoder.singleValueContainer()
      if n.isFinite, n == n.rounded(), abs(n) < 9e15 {
        try container.encode(Int64(n))
      } else if n.isFinite {
        try container.encode(n)
      } else {
        try container.encodeNil()
      }
    case .bool(let b):
      var container = encoder.singleValueContainer()
      try container.encode(b)
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .array(let values):
      var container = encoder.unkeyedContainer()
      for value in values { try container.encode(value) }
    case .object(let pairs):
      var container = encoder.container(keyedBy: Key.self)
      for (key, value) in pairs { try container.encode(value, forKey: Key(key)) }
    }
  }

  /// One line of JSON Lines. Objects are written here, member by member, because Foundation's
  /// encoder does not promise to keep keys in order; scalars go through it for exact escaping.
  func line() -> String {
    var out = ""
    write(to: &out)
    return out
  }

  private func write(to out: inout String) {
    switch self {
    case .array(let values):
      out += "["
      for (index, value) in values.enumerated() {
        if index > 0 { out += "," }
        value.write(to: &out)
      }
      out += "]"
    case .object(let pairs):
      out += "{"
      for (index, (key, value)) in pairs.enumerated() {
        if index > 0 { out += "," }
        out += Self.encodeScalar(.string(key))
        out += ":"
        value.write(to: &out)
      }
      out += "}"
    default:
      out += Self.encodeScalar(self)
    }
  }

  private static func encodeScalar(_ value: JSONValue) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    let data = (try? encoder.encode(value)) ?? Data("null".utf8)
    return String(decoding: data, as: UTF8.self)
  }
}
