import Foundation

/// One line of the corpus's expected/*.jsonl, flattened into what the comparisons need: numbers
/// and texts by key. Lists (mutagen gives every tag as a list) keep their first item; nested
/// objects (the `ffprobe` block) are flattened as `ffprobe.sample_rate`, `ffprobe.tags.composer`.
struct OracleRecord: Sendable {
  let file: String
  var numbers: [String: Double] = [:]
  var texts: [String: String] = [:]

  init(json: [String: JSONValue]) {
    if case .string(let name)? = json["file"] { file = name } else { file = "" }
    flatten(json, prefix: "")
  }

  private mutating func flatten(_ object: [String: JSONValue], prefix: String) {
    for (key, value) in object {
      let name = prefix + key
      switch value {
      case .number(let number): numbers[name] = number
      case .string(let text): texts[name] = text
      case .array(let list): if case .string(let first)? = list.first { texts[name] = first }
      case .object(let nested): flatten(nested, prefix: name + ".")
      case .bool, .null: break
      }
    }
  }

  /// Every record of `expected/<name>.jsonl`.
  static func load(_ name: String) throws -> [OracleRecord] {
    let url = TestPaths.corpus.appendingPathComponent("expected/\(name).jsonl")
    let text = try String(contentsOf: url, encoding: .utf8)
    return try text.split(separator: "\n").map { line in
      OracleRecord(json: try JSONDecoder().decode([String: JSONValue].self, from: Data(line.utf8)))
    }
  }

  var path: String { TestPaths.corpus.appendingPathComponent(file).path }
}

/// Any JSON value, decoded strictly (a JSON `true` is never the number 1).
enum JSONValue: Decodable, Sendable {
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])
  case null

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }
}
