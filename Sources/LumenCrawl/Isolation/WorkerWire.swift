import Foundation
import LumenExtract

/// The binary frames of the per-file traffic between the indexer and a worker: jobs one way,
/// `WorkerMessage`s the other (see `WireWriter` for why not JSON). The worker's hello stays
/// JSON: it is sent once.
extension WorkerMessage {
  private enum Tag {
    static let ready: UInt8 = 0
    static let begin: UInt8 = 1
    static let result: UInt8 = 2
  }

  /// The payload of this message's frame.
  func wire() throws -> [UInt8] {
    var writer = WireWriter()
    switch self {
    case .ready(let report):
      writer.byte(Tag.ready)
      writer.blob(Array(try JSONEncoder().encode(report)))
    case .begin(let identity, let seconds):
      writer.byte(Tag.begin)
      writer.string(identity.name)
      writer.int64(Int64(identity.version))
      writer.double(seconds)
    case .result(let result):
      writer.byte(Tag.result)
      try ResultWire.encode(result, into: &writer)
    }
    return writer.bytes
  }

  /// Reads a frame's payload; anything left over or out of place is an error.
  init(wire payload: ArraySlice<UInt8>) throws {
    var reader = WireReader(payload)
    switch try reader.byte() {
    case Tag.ready:
      self = .ready(try JSONDecoder().decode(ConfinementReport.self, from: Data(try reader.blob())))
    case Tag.begin:
      let name = try reader.string()
      guard let version = Int(exactly: try reader.int64()) else {
        throw WireError.invalid("an extractor version out of range")
      }
      self = .begin(
        ExtractorIdentity(name: name, version: version), timeoutSeconds: try reader.double())
    case Tag.result:
      self = .result(try ResultWire.decode(from: &reader))
    case let tag:
      throw WireError.unknownTag("message", tag)
    }
    guard reader.isAtEnd else { throw WireError.invalid("bytes after the message") }
  }
}

extension ExtractionJob {
  /// The payload of this job's frame: path, MIME type, and the content type if any.
  func wire() -> [UInt8] {
    var writer = WireWriter(capacity: 64 + path.utf8.count)
    writer.string(path)
    writer.string(mimeType)
    writer.byte(contentType == nil ? 0 : 1)
    if let contentType { writer.string(contentType) }
    return writer.bytes
  }

  init(wire payload: ArraySlice<UInt8>) throws(WireError) {
    var reader = WireReader(payload)
    let path = try reader.string()
    let mimeType = try reader.string()
    let contentType = try reader.byte() == 0 ? nil : try reader.string()
    guard reader.isAtEnd else { throw .invalid("bytes after the job") }
    self.init(path: path, mimeType: mimeType, contentType: contentType)
  }
}
