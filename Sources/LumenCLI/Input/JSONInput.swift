import Foundation

/// Any JSON value read from a `lumen items add` line, before it is typed against the registry.
enum JSONInput: Decodable, Equatable {
  case string(String)
  case number(Double)
  case bool(Bool)
  case null
  case array([JSONInput])
  case object([String: JSONInput])

  init(from decoder: Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let b = try? container.decode(Bool.self) {
      self = .bool(b)
    } else if let n = try? container.decode(Double.self) {
      self = .number(n)
    } else if let s = try? container.decode(String.self) {
      self = .string(s)
    } else if let a = try? container.decode([JSONInput].self) {
      self = .array(a)
    } else {
      self = .object(try container.decode([String: JSONInput].self))
    }
  }
}
