import Foundation
import LumenExtract
import LumenModel

/// The binary form of an `ExtractionResult` between a worker and the indexer (see
/// `WireWriter` for why not JSON). Built-in attributes go by name; what is rare (a custom
/// attribute's registry row, the rule, failures) goes as embedded JSON.
///
///     flags: 1 byte (outcome, extractor, contentType, rule present)
///     outcome: attribute count, then per attribute: 0 + name | 1 + key JSON; value count,
///              then per value: tag (0 text, 1 number, 2 date, 3 bool) and the value;
///              problem count and problems
///     extractor: name, version; contentType; rule JSON
///     candidates JSON, failures JSON (empty blobs when there are none), elapsed seconds
enum ResultWire {
  private enum Flag {
    static let outcome: UInt8 = 1
    static let extractor: UInt8 = 2
    static let contentType: UInt8 = 4
    static let rule: UInt8 = 8
  }

  static func encode(_ result: ExtractionResult, into writer: inout WireWriter) throws {
    var flags: UInt8 = 0
    if result.outcome != nil { flags |= Flag.outcome }
    if result.extractor != nil { flags |= Flag.extractor }
    if result.contentType != nil { flags |= Flag.contentType }
    if result.rule != nil { flags |= Flag.rule }
    writer.byte(flags)
    if let outcome = result.outcome {
      let keys = outcome.attributes.orderedKeys
      writer.count(keys.count)
      for key in keys {
        if !key.isCustom, AttributeRegistry.builtIn.key(named: key.name) == key {
          writer.byte(0)
          writer.string(key.name)
        } else {
          writer.byte(1)
          writer.blob(Array(try JSONEncoder().encode(key)))
        }
        let values = outcome.attributes[key] ?? []
        writer.count(values.count)
        for value in values { encode(value, into: &writer) }
      }
      writer.count(outcome.problems.count)
      for problem in outcome.problems { writer.string(problem) }
    }
    if let extractor = result.extractor {
      writer.string(extractor.name)
      writer.int64(Int64(extractor.version))
    }
    if let contentType = result.contentType { writer.string(contentType) }
    if let rule = result.rule { writer.blob(Array(try JSONEncoder().encode(rule))) }
    writer.blob(result.candidates.isEmpty ? [] : Array(try JSONEncoder().encode(result.candidates)))
    writer.blob(result.failures.isEmpty ? [] : Array(try JSONEncoder().encode(result.failures)))
    writer.double(result.elapsedSeconds)
  }

  static func decode(from reader: inout WireReader) throws -> ExtractionResult {
    let flags = try reader.byte()
    var result = ExtractionResult()
    if flags & Flag.outcome != 0 {
      var attributes = AttributeSet()
      for _ in 0..<(try reader.count()) {
        let key: AttributeKey
        switch try reader.byte() {
        case 0:
          let name = try reader.string()
          guard let builtIn = AttributeRegistry.builtIn.key(named: name) else {
            throw WireError.invalid("no built-in attribute '\(name)'")
          }
          key = builtIn
        case 1:
          key = try JSONDecoder().decode(AttributeKey.self, from: Data(try reader.blob()))
        case let tag:
          throw WireError.unknownTag("attribute key", tag)
        }
        var values: [AttributeValue] = []
        for _ in 0..<(try reader.count()) { values.append(try decodeValue(from: &reader)) }
        attributes.set(values, for: key)
      }
      var problems: [String] = []
      for _ in 0..<(try reader.count()) { problems.append(try reader.string()) }
      result.outcome = ExtractionOutcome(attributes: attributes, problems: problems)
    }
    if flags & Flag.extractor != 0 {
      let name = try reader.string()
      guard let version = Int(exactly: try reader.int64()) else {
        throw WireError.invalid("an extractor version out of range")
      }
      result.extractor = ExtractorIdentity(name: name, version: version)
    }
    if flags & Flag.contentType != 0 { result.contentType = try reader.string() }
    if flags & Flag.rule != 0 {
      result.rule = try JSONDecoder().decode(ExtractionRule.self, from: Data(try reader.blob()))
    }
    let candidates = try reader.blob()
    if !candidates.isEmpty {
      result.candidates = try JSONDecoder().decode([RuleSource].self, from: Data(candidates))
    }
    let failures = try reader.blob()
    if !failures.isEmpty {
      result.failures = try JSONDecoder().decode([ExtractionFailure].self, from: Data(failures))
    }
    result.elapsedSeconds = try reader.double()
    return result
  }

  private static func encode(_ value: AttributeValue, into writer: inout WireWriter) {
    switch value {
    case .text(let text):
      writer.byte(0)
      writer.string(text)
    case .number(let number):
      writer.byte(1)
      writer.double(number)
    case .date(let date):
      writer.byte(2)
      writer.double(date.timeIntervalSinceReferenceDate)
    case .bool(let flag):
      writer.byte(3)
      writer.byte(flag ? 1 : 0)
    }
  }

  private static func decodeValue(from reader: inout WireReader) throws(WireError)
    -> AttributeValue
  {
    switch try reader.byte() {
    case 0: return .text(try reader.string())
    case 1: return .number(try reader.double())
    case 2: return .date(Date(timeIntervalSinceReferenceDate: try reader.double()))
    case 3: return .bool(try reader.byte() != 0)
    case let tag: throw .unknownTag("attribute value", tag)
    }
  }
}
