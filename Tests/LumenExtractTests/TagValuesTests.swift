import Foundation
import LumenModel
import Testing

@testable import LumenExtract

@Suite struct TagValuesTests {
  @Test(arguments: [
    ("2", 2), ("02", 2), ("2/3", 2), (" 10/12", 10), ("", nil), ("x1", nil), ("0", nil),
  ])
  func trackNumbers(text: String, expected: Int?) {
    #expect(TagValues.leadingInteger(text) == expected)
  }

  @Test(arguments: [
    ("2001", "2001-01-01T00:00:00Z"), ("2004-11-02", "2004-11-02T00:00:00Z"),
    ("2008.05.25", "2008-05-25T00:00:00Z"), ("2008/05/25", "2008-05-25T00:00:00Z"),
    ("2004-11-02T10:20:30", "2004-11-02T10:20:30Z"), ("2004-11", "2004-11-01T00:00:00Z"),
  ])
  func recordingDates(text: String, expected: String) {
    let utc = TimeZone(secondsFromGMT: 0)!
    #expect(TagValues.date(text, timeZone: utc) == ISO8601Dates.parse(expected))
  }

  @Test(arguments: ["", "someday", "20O1", "2001-13-01"])
  func nonsenseIsNoDate(text: String) {
    #expect(TagValues.date(text) == nil)
  }

  /// ID3v1 only, ID3v2.2 (three-letter frames), v2.3, v2.4 and an ID3v2 tag in front of FLAC.
  @Test(arguments: [
    ("audio/testMP3id3v1.mp3", "Test Title", 1.0),
    ("audio/id3v22-test.mp3", "cosmic american", 3.0),
    ("audio/id3_xxx_lang.mp3", "Counting Bodies Like Sheep to the Rhythm of the War Drums", 10.0),
    ("audio/testMP3id3v24.mp3", "Test Title", 3.0),
    ("audio/with_padded_id3_header.flac", "title", 1.0),
  ])
  func id3Versions(file: String, title: String, track: Double) throws {
    let path = TestPaths.corpus.appendingPathComponent(file).path
    let outcome = try MusicExtractor().extract(
      ExtractionRequest(
        path: path, mimeType: "audio/mpeg", contentType: "public.mp3", limits: ExtractionLimits()))
    #expect(outcome.attributes.text(.title) == title)
    #expect(outcome.attributes.number(.audioTrackNumber) == track)
  }

  /// TagLib picks the format by extension; without one, the MIME type decides.
  @Test func fileWithoutExtensionOpensByMIME() throws {
    let directory = try TestPaths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let bytes = try Data(
      contentsOf: TestPaths.corpus.appendingPathComponent("audio/beets-full.flac"))
    let path = directory.appendingPathComponent("song").path
    try bytes.write(to: URL(fileURLWithPath: path))
    let outcome = try MusicExtractor().extract(
      ExtractionRequest(
        path: path, mimeType: "audio/flac", contentType: "org.xiph.flac", limits: ExtractionLimits()
      ))
    #expect(outcome.attributes.text(.album) == "the album")
    #expect(outcome.attributes[.codecs] == [.text("flac")])
  }
}
