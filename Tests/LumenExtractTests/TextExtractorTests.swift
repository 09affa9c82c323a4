import Foundation
import LumenModel
import Testing

@testable import LumenExtract

/// Plain text, Markdown and source code: decoding, the byte budget and Markdown titles.
@Suite struct TextExtractorTests {
  static func extract(
    _ bytes: [UInt8], name: String = "file.txt", mime: String = "text/plain",
    limits: ExtractionLimits = ExtractionLimits()
  ) throws -> ExtractionOutcome {
    let directory = try TemporaryDirectory()
    let path = try directory.write(name, bytes)
    return try TextExtractor().extract(
      ExtractionRequest(
        path: path, mimeType: mime, contentType: "public.plain-text", limits: limits))
  }

  static func utf16(_ text: String, littleEndian: Bool, bom: Bool) -> [UInt8] {
    let units = Array(text.utf16)
    let body = units.flatMap { unit in
      littleEndian
        ? [UInt8(unit & 0xFF), UInt8(unit >> 8)] : [UInt8(unit >> 8), UInt8(unit & 0xFF)]
    }
    return (bom ? (littleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF]) : []) + body
  }

  @Test func utf8IsReadAsIs() throws {
    let outcome = try Self.extract(Array("Grüße, 世界 🌍\nline two\n".utf8))
    #expect(outcome.attributes.text(.textContent) == "Grüße, 世界 🌍\nline two")
  }

  @Test(arguments: [(true, true), (false, true), (true, false), (false, false)])
  func utf16IsTranscoded(_ littleEndian: Bool, _ bom: Bool) throws {
    let text = "Hello UTF-16 text with ümlauts and enough ASCII to be recognised"
    let outcome = try Self.extract(Self.utf16(text, littleEndian: littleEndian, bom: bom))
    #expect(outcome.attributes.text(.textContent) == text)
  }

  @Test func utf8BOMIsDropped() throws {
    let outcome = try Self.extract([0xEF, 0xBB, 0xBF] + Array("bom".utf8))
    #expect(outcome.attributes.text(.textContent) == "bom")
  }

  @Test func latin1IsTheFallback() throws {
    // "café crème" in ISO-8859-1: é is 0xE9, è is 0xE8 — not valid UTF-8.
    let bytes: [UInt8] = [0x63, 0x61, 0x66, 0xE9, 0x20, 0x63, 0x72, 0xE8, 0x6D, 0x65]
    #expect(try Self.extract(bytes).attributes.text(.textContent) == "café crème")
  }

  @Test func declaredCharsetWins() throws {
    // 0x80 is € in windows-1252 and a control character in ISO-8859-1.
    let bytes: [UInt8] = [0x80, 0x20, 0x35]
    let outcome = try Self.extract(bytes, mime: "text/plain; charset=windows-1252")
    #expect(outcome.attributes.text(.textContent) == "€ 5")
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 10])
  func textIsCutOnACharacterBoundary(_ limit: Int) throws {
    let text = "a€🌍b"  // 1 + 3 + 4 + 1 bytes
    let outcome = try Self.extract(Array(text.utf8), limits: ExtractionLimits(maxTextBytes: limit))
    let result = outcome.attributes.text(.textContent) ?? ""
    #expect(result.utf8.count <= limit)
    #expect(text.hasPrefix(result))
    let expected = [1: "a", 2: "a", 3: "a", 4: "a€", 5: "a€", 6: "a€", 7: "a€", 10: "a€🌍b"]
    #expect(result == expected[limit])
  }

  @Test func maxBytesCutsTheReadAndAHalfCharacterIsDropped() throws {
    let text = String(repeating: "é", count: 100)  // 200 bytes
    let outcome = try Self.extract(Array(text.utf8), limits: ExtractionLimits(maxBytes: 51))
    #expect(outcome.attributes.text(.textContent) == String(repeating: "é", count: 25))
  }

  @Test func nulCharactersAreRemoved() throws {
    let outcome = try Self.extract(Array("a\u{0}b".utf8))
    #expect(outcome.attributes.text(.textContent) == "ab")
  }

  @Test func emptyFileHasNoText() throws {
    #expect(try Self.extract([]).attributes.text(.textContent) == nil)
  }

  @Test(arguments: [
    ("# Title\n\nBody", "Title"),
    ("Intro\n\n# Real Title #\n", "Real Title"),
    ("```\n# not a title\n```\n# After Fence", "After Fence"),
    ("Setext Title\n============\n\ntext", "Setext Title"),
    ("---\ntitle: \"Front Matter\"\ndate: 2020\n---\n# Heading", "Front Matter"),
    ("    # indented code\n## Second level only", nil),
    ("#NoSpace\nplain", nil),
  ])
  func markdownTitle(_ text: String, _ title: String?) throws {
    let outcome = try Self.extract(Array(text.utf8), name: "note.md", mime: "text/markdown")
    #expect(outcome.attributes.text(.title) == title)
  }

  @Test func plainTextGetsNoMarkdownTitle() throws {
    let outcome = try Self.extract(
      Array("# comment in a shell script\necho hi\n".utf8), name: "run.sh")
    #expect(outcome.attributes.text(.title) == nil)
  }

  @Test func sourceCodeIsReadAsText() throws {
    let source = "import Foundation\n\nstruct Point { let x: Int }\n"
    let outcome = try Self.extract(Array(source.utf8), name: "Point.swift", mime: "text/x-swift")
    #expect(
      outcome.attributes.text(.textContent)
        == source.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  @Test func aDirectoryIsACleanError() throws {
    let directory = try TemporaryDirectory()
    #expect(throws: ExtractionError.self) {
      try TextExtractor().extract(
        ExtractionRequest(
          path: directory.url.path, mimeType: "text/plain", contentType: "public.plain-text",
          limits: ExtractionLimits()))
    }
  }

  @Test func nonUTF8FileNamesAreOpened() throws {
    let directory = try TemporaryDirectory()
    let nameBytes: [UInt8] =
      Array(directory.url.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".txt".utf8)
    let descriptor = (nameBytes + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o600) }
    }
    try #require(descriptor >= 0)
    _ = Array("latin name".utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
    let request = ExtractionRequest(
      path: FaithfulPath.decode(nameBytes), mimeType: "text/plain",
      contentType: "public.plain-text",
      limits: ExtractionLimits())
    #expect(try TextExtractor().extract(request).attributes.text(.textContent) == "latin name")
  }
}
