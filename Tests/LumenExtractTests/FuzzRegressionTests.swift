import Dispatch
import Foundation
import Testing

@testable import LumenExtract

/// Findings of bench/fuzz, each rebuilt here from its cause (no committed fuzz inputs) so that
/// it stays fixed.
@Suite struct FuzzRegressionTests {
  /// A zip written byte by byte, so an entry can hold any (broken) compressed data and its
  /// local header can say anything.
  struct HandMadeZip {
    struct Part {
      let name: String
      let method: UInt16
      let data: [UInt8]
      /// The compressed size the headers declare, when it is not the data's.
      var declaredSize: UInt32? = nil
    }

    let parts: [Part]

    var bytes: [UInt8] {
      var out: [UInt8] = []
      var central: [UInt8] = []
      func u16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8)] }
      func u32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xff) } }
      for part in parts {
        let name = Array(part.name.utf8)
        let offset = UInt32(out.count)
        let declared = part.declaredSize ?? UInt32(part.data.count)
        let sizes = u32(0) + u32(declared) + u32(UInt32(part.data.count * 4))
        out += [0x50, 0x4B, 0x03, 0x04] + u16(20) + u16(0) + u16(part.method) + u32(0) + sizes
        out += u16(UInt16(name.count)) + u16(0) + name + part.data
        central += [0x50, 0x4B, 0x01, 0x02] + u16(20) + u16(20) + u16(0) + u16(part.method)
        central += u32(0) + sizes + u16(UInt16(name.count)) + u16(0) + u16(0) + u16(0) + u16(0)
        central += u32(0) + u32(offset) + name
      }
      let centralOffset = UInt32(out.count)
      out += central
      out += [0x50, 0x4B, 0x05, 0x06] + u16(0) + u16(0) + u16(UInt16(parts.count))
      out += u16(UInt16(parts.count)) + u32(UInt32(central.count)) + u32(centralOffset) + u16(0)
      return out
    }
  }

  static let meta = Array(DocumentHostileInputTests.odfMeta.utf8)

  /// Extracts on another thread and gives up waiting after `seconds`: a regression must fail
  /// the test, not hang the suite.
  static func extractWithin(_ seconds: Double, _ path: String) -> Result<
    ExtractionOutcome, ExtractionError
  >? {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var result: Result<ExtractionOutcome, ExtractionError>?
    Thread.detachNewThread {
      let request = DocumentHostileInputTests.request(
        path, "application/vnd.oasis.opendocument.text")
      do throws(ExtractionError) {
        result = .success(try OpenDocumentExtractor().extract(request))
      } catch {
        result = .failure(error)
      }
      done.signal()
    }
    guard done.wait(timeout: .now() + seconds) == .success else { return nil }
    return result
  }

  /// bench/fuzz, opendocument: a deflate stream that never ends made ZIPFoundation read past
  /// the end of the file forever (it inflates until zlib says the stream ended). Here: a stored
  /// block that promises 65,535 bytes and gives three.
  @Test func aDeflateStreamThatNeverEndsIsAProblemNotAHang() throws {
    let directory = try TemporaryDirectory()
    let zip = HandMadeZip(parts: [
      .init(name: "mimetype", method: 0, data: DocumentHostileInputTests.odtMime),
      .init(name: "meta.xml", method: 0, data: Self.meta),
      .init(
        name: "META-INF/manifest.xml", method: 8,
        data: [0x00, 0xFF, 0xFF, 0x00, 0x00] + Array("abc".utf8)),
    ])
    let path = try directory.write("endless.odt", zip.bytes)
    let result = try #require(Self.extractWithin(10, path), "the extractor hung")
    let outcome = try result.get()
    #expect(outcome.attributes.text(.title) == "Survivor", "the rest of the file still counts")
    #expect(
      outcome.problems.contains {
        $0.contains("META-INF/manifest.xml")
          && $0.contains("does not end within its compressed size")
      }, "\(outcome.problems)")
  }

  /// The same finding's other half: an entry whose compressed data, as declared, runs past the
  /// end of the file is refused before anything is read.
  @Test func compressedDataPastTheEndOfTheFileIsAProblem() throws {
    let directory = try TemporaryDirectory()
    let zip = HandMadeZip(parts: [
      .init(name: "mimetype", method: 0, data: DocumentHostileInputTests.odtMime),
      .init(name: "meta.xml", method: 0, data: Self.meta),
      .init(name: "META-INF/manifest.xml", method: 8, data: [0x03, 0x00], declaredSize: 100_000),
    ])
    let path = try directory.write("far.odt", zip.bytes)
    let result = try #require(Self.extractWithin(10, path), "the extractor hung")
    let outcome = try result.get()
    #expect(outcome.attributes.text(.title) == "Survivor")
    #expect(
      outcome.problems.contains { $0.contains("runs past the end of the file") },
      "\(outcome.problems)")
  }
}
