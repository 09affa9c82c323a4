import Foundation
import LumenModel
import LumenTestSupport
import Testing

@testable import LumenExtract

/// Broken and hostile files: each must give partial results or a clean `ExtractionError`,
/// never a crash or a hang (a crash would take this whole test process down with it).
@Suite struct HostileInputTests {
  let directory: URL

  init() throws { directory = try TestPaths.temporaryDirectory("hostile") }

  static func corpusBytes(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: TestPaths.corpus.appendingPathComponent(name)))
  }

  /// Runs `extractor` on `bytes` saved as `name`; returns the outcome or nil for a clean error.
  @discardableResult
  func run(_ extractor: some Extractor, _ bytes: [UInt8], _ name: String, mime: String) throws
    -> ExtractionOutcome?
  {
    let path = try ImageFixtures.write(bytes, name, in: directory)
    let request = ExtractionRequest(
      path: path, mimeType: mime, contentType: "public.data", limits: ExtractionLimits())
    do {
      return try extractor.extract(request)
    } catch {
      #expect(!error.message.isEmpty, "an error must say what is wrong")
      return nil
    }
  }

  @Test(arguments: ["empty.jpg", "empty.png", "empty.tif", "empty.heic"])
  func emptyImageIsACleanError(name: String) throws {
    let path = try ImageFixtures.write([], name, in: directory)
    #expect(throws: ExtractionError.self) {
      try PhotoExtractor().extract(
        ExtractionRequest(
          path: path, mimeType: "image/jpeg", contentType: "public.jpeg", limits: ExtractionLimits()
        ))
    }
  }

  @Test(arguments: ["empty.mp3", "empty.flac", "empty.ogg", "empty.m4a", "empty.opus"])
  func emptyAudioIsACleanError(name: String) throws {
    #expect(try run(MusicExtractor(), [], name, mime: "audio/mpeg") == nil)
  }

  @Test(arguments: ["noise.mp3", "noise.flac", "noise.ogg", "noise.m4a", "noise.opus", "noise.jpg"])
  func randomBytesNeverCrash(name: String) throws {
    var random = SeededRandom(seed: UInt64(name.utf8.reduce(0) { $0 &* 31 &+ Int($1) }))
    for size in [1, 3, 200, 4096, 65_536] {
      let noise = (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }
      if name.hasSuffix(".jpg") {
        try run(PhotoExtractor(), noise, name, mime: "image/jpeg")
        // Noise behind a real JPEG signature reaches the marker walker.
        try run(PhotoExtractor(), [0xFF, 0xD8, 0xFF] + noise, name, mime: "image/jpeg")
      } else {
        try run(MusicExtractor(), noise, name, mime: "audio/mpeg")
      }
    }
  }

  /// Every cut of a real JPEG: header only, inside the EXIF, between EXIF and the frame header.
  @Test func truncatedJPEGGivesWhatItHas() throws {
    let jpeg = try Self.corpusBytes("images/Canon_40D.jpg")
    for length in stride(from: 0, to: min(jpeg.count, 20_000), by: 97) {
      try run(PhotoExtractor(), Array(jpeg[..<length]), "cut.jpg", mime: "image/jpeg")
    }
    // Cut right before the frame header: EXIF is whole, the size is unknown and said to be.
    // (The first FF C0 in the file belongs to the thumbnail inside EXIF; walk the segments.)
    var sof = 2
    while jpeg[sof + 1] != 0xC0 { sof += 2 + Int(jpeg[sof + 2]) << 8 + Int(jpeg[sof + 3]) }
    let partial = try #require(
      try run(PhotoExtractor(), Array(jpeg[..<sof]), "cut.jpg", mime: "image/jpeg"))
    #expect(partial.attributes.text(.acquisitionModel) == "Canon EOS 40D")
    #expect(partial.attributes.number(.pixelWidth) == nil)
    #expect(!partial.problems.isEmpty)
  }

  /// Random bytes flipped inside the EXIF segment of real photos, 200 variants each.
  @Test(arguments: [
    "images/Canon_40D.jpg", "images/DSCN0010.jpg", "images/exiftool-GoPro.jpg",
    "images/Fujifilm_FinePix6900ZOOM.jpg", "images/exiftool-Apple.jpg",
  ])
  func bitFlippedExifNeverCrashes(file: String) throws {
    let original = try Self.corpusBytes(file)
    var random = SeededRandom(seed: 42)
    let span = min(original.count, 64 << 10)
    for _ in 0..<200 {
      var damaged = original
      for _ in 0..<Int.random(in: 1...16, using: &random) {
        damaged[Int.random(in: 4..<span, using: &random)] ^= UInt8.random(
          in: 1...255, using: &random)
      }
      try run(PhotoExtractor(), damaged, "flipped.jpg", mime: "image/jpeg")
    }
  }

  @Test(arguments: [
    "images/testHEIF.heic", "images/IMG_5195.HEIC", "images/exiftool-DNG.dng",
    "images/Picoawards.tiff",
  ])
  func damagedContainersNeverCrash(file: String) throws {
    let original = try Self.corpusBytes(file)
    var random = SeededRandom(seed: 7)
    let span = min(original.count, 8 << 10)
    for length in stride(from: 0, to: span, by: 61) {
      try run(PhotoExtractor(), Array(original[..<length]), "cut", mime: "image/heic")
    }
    for _ in 0..<200 {
      var damaged = original
      for _ in 0..<Int.random(in: 1...8, using: &random) {
        damaged[Int.random(in: 8..<span, using: &random)] = UInt8.random(
          in: 0...255, using: &random)
      }
      try run(PhotoExtractor(), damaged, "flipped", mime: "image/heic")
    }
  }

  @Test func ifd0OffsetOutsideTheFileIsACleanError() throws {
    var tiff = TIFFBuilder(bigEndian: true)
    tiff.ifd0 = [tiff.long(0x0100, 10), tiff.long(0x0101, 10)]
    tiff.ifd0OffsetOverride = 0x7FFF_FFF0
    #expect(try run(PhotoExtractor(), tiff.build(), "far.tif", mime: "image/tiff") == nil)
  }

  @Test func exifPointerOutsideTheFileKeepsTheRest() throws {
    var tiff = TIFFBuilder(bigEndian: false)
    tiff.ifd0 = [tiff.long(0x0100, 33), tiff.long(0x0101, 44), tiff.long(0x8769, 0x00FF_FFFF)]
    let outcome = try #require(
      try run(PhotoExtractor(), tiff.build(), "far.tif", mime: "image/tiff"))
    #expect(outcome.attributes.number(.pixelWidth) == 33)
    #expect(outcome.problems.contains { $0.contains("outside") })
  }

  /// IFD0's next pointer points back at IFD0, and its EXIF pointer at IFD0 too.
  @Test(arguments: [true, false])
  func ifdLoopsEnd(bigEndian: Bool) throws {
    var tiff = TIFFBuilder(bigEndian: bigEndian)
    tiff.ifd0 = [tiff.long(0x0100, 12), tiff.long(0x0101, 34), tiff.long(0x8769, 8)]
    tiff.nextIFDOverride = 8
    let outcome = try #require(
      try run(PhotoExtractor(), tiff.build(), "loop.tif", mime: "image/tiff"))
    #expect(outcome.attributes.number(.pixelWidth) == 12)
    #expect(outcome.problems.contains { $0.contains("loop") })
  }

  @Test func hugeChunkLengthsAreRefused() throws {
    var png = ImageFixtures.png(width: 5, height: 6)
    // An eXIf chunk claiming 4 GB, right after IHDR.
    let ihdrEnd = 8 + 12 + 13
    png.insert(contentsOf: [0xFF, 0xFF, 0xFF, 0xF0] + Array("eXIf".utf8), at: ihdrEnd)
    let outcome = try #require(try run(PhotoExtractor(), png, "huge.png", mime: "image/png"))
    #expect(outcome.attributes.number(.pixelWidth) == 5)
    #expect(!outcome.problems.isEmpty)

    let webp = ImageFixtures.riff(Array("EXIF".utf8) + [0xF0, 0xFF, 0xFF, 0xFF])
    try run(PhotoExtractor(), webp, "huge.webp", mime: "image/webp")
  }

  @Test(arguments: [
    "audio/beets-full.flac", "audio/beets-full.ogg", "audio/beets-full.m4a",
    "audio/beets-full.mp3", "audio/beets-full.opus", "audio/id3v22-test.mp3",
  ])
  func damagedAudioNeverCrashes(file: String) throws {
    let original = try Self.corpusBytes(file)
    let name = "damaged." + (file as NSString).pathExtension
    for length in stride(from: 0, to: original.count, by: max(1, original.count / 40)) {
      try run(MusicExtractor(), Array(original[..<length]), name, mime: "audio/mpeg")
    }
    var random = SeededRandom(seed: 99)
    for _ in 0..<100 {
      var damaged = original
      for _ in 0..<Int.random(in: 1...8, using: &random) {
        damaged[Int.random(in: 0..<min(original.count, 4096), using: &random)] = UInt8.random(
          in: 0...255, using: &random)
      }
      try run(MusicExtractor(), damaged, name, mime: "audio/mpeg")
    }
  }

  /// A FIFO would block a plain open(2) forever; the extractors refuse it at once.
  @Test func fifoIsRefused() throws {
    let path = directory.appendingPathComponent("pipe.jpg").path
    #expect(mkfifo(path, 0o600) == 0)
    #expect(throws: ExtractionError.self) {
      try PhotoExtractor().extract(
        ExtractionRequest(
          path: path, mimeType: "image/jpeg", contentType: "public.jpeg", limits: ExtractionLimits()
        ))
    }
  }
}
