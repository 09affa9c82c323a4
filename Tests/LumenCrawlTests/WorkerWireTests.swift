import Foundation
import LumenExtract
import LumenModel
import Testing

@testable import LumenCrawl

/// The binary frames between the indexer and its workers: what the rule chain gives for real
/// corpus files comes back equal, and a frame a compromised worker could send (cut short,
/// bytes flipped, lengths that lie) is an error, never a crash.
@Suite struct WorkerWireTests {
  static let files: [(String, String)] = [
    ("images/Canon_40D.jpg", "image/jpeg"),
    ("images/exiftool-GoPro.jpg", "image/jpeg"),
    ("audio/beets-full.m4a", "audio/x-m4a"),
    ("documents/testPDF_twoAuthors.pdf", "application/pdf"),
    (
      "documents/testWORD.docx",
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    ),
    ("html/edsu-example-nested.html", "text/html"),
    ("README.md", "text/markdown"),
    // No rule reads it: no outcome, no extractor.
    ("images/Canon_40D.jpg", "application/x-nothing-reads-this"),
  ]

  static func result(_ file: String, _ mimeType: String) -> ExtractionResult {
    WorkerSupport.service().extract(
      ExtractionJob(path: WorkerSupport.corpus + "/" + file, mimeType: mimeType))
  }

  @Test(arguments: files)
  func resultsComeBackEqual(_ file: String, _ mimeType: String) throws {
    let result = Self.result(file, mimeType)
    let payload = try WorkerMessage.result(result).wire()
    guard case .result(let decoded) = try WorkerMessage(wire: payload[...]) else {
      Issue.record("not a result")
      return
    }
    #expect(decoded == result)
  }

  @Test func customAttributesFailuresAndTheRuleSurvive() throws {
    var result = Self.result("html/edsu-example-nested.html", "text/html")
    #expect(result.outcome?.attributes.orderedKeys.contains { $0.isCustom } == true)
    let rule = try #require(result.rule)
    result.failures = [
      ExtractionFailure(
        rule: rule.source, extractor: ExtractorIdentity(name: "photo", version: 3),
        error: ExtractionError(.malformed, "no frame header"))
    ]
    result.outcome?.problems = ["one", "two é"]
    result.outcome?.attributes.set(
      [.date(Date(timeIntervalSinceReferenceDate: 12.345)), .bool(true), .number(-0.5)],
      for: try AttributeKey.custom("test.mixed", multiValued: true))
    guard
      case .result(let decoded) = try WorkerMessage(
        wire: try WorkerMessage.result(result).wire()[...])
    else {
      Issue.record("not a result")
      return
    }
    #expect(decoded == result)
  }

  @Test func otherMessagesAndJobsComeBackEqual() throws {
    let identity = ExtractorIdentity(name: "pdf", version: 2)
    guard
      case .begin(let name, let seconds) = try WorkerMessage(
        wire: try WorkerMessage.begin(identity, timeoutSeconds: 2.5).wire()[...])
    else {
      Issue.record("not a begin")
      return
    }
    #expect(name == identity)
    #expect(seconds == 2.5)
    var report = ConfinementReport()
    report.baselineAddressSpace = 123
    guard
      case .ready(let back) = try WorkerMessage(wire: try WorkerMessage.ready(report).wire()[...])
    else {
      Issue.record("not a ready")
      return
    }
    #expect(back == report)
    for job in [
      ExtractionJob(path: "/a/b c/ünï.jpg", mimeType: "image/jpeg", contentType: "public.jpeg"),
      ExtractionJob(path: "/x", mimeType: "text/plain", contentType: nil),
    ] {
      #expect(try ExtractionJob(wire: job.wire()[...]) == job)
    }
  }

  /// Every prefix of a frame is refused (nothing reads past the end), and flipping any byte
  /// gives an error or some result, never a crash or a runaway allocation.
  @Test func damagedFramesAreErrors() throws {
    let payload = try WorkerMessage.result(Self.result("images/Canon_40D.jpg", "image/jpeg")).wire()
    for length in 0..<payload.count {
      #expect(throws: (any Error).self) { try WorkerMessage(wire: payload[..<length]) }
    }
    #expect(throws: (any Error).self) { try WorkerMessage(wire: (payload + [0])[...]) }
    var random = SystemRandomNumberGenerator()
    for index in payload.indices {
      var damaged = payload
      damaged[index] ^= UInt8.random(in: 1...255, using: &random)
      _ = try? WorkerMessage(wire: damaged[...])
    }
    // A length that claims more than the frame holds.
    #expect(throws: WireError.truncated) {
      try ExtractionJob(wire: [0xFF, 0xFF, 0xFF, 0x7F, 0x41][...])
    }
  }
}
