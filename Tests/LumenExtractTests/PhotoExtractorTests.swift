import Foundation
import LumenModel
import Testing

@testable import LumenExtract

/// The photo extractor on files built for the purpose: both TIFF byte orders, directories past
/// libexif's 64 KiB, and the containers the corpus lacks (PNG, GIF, WebP).
@Suite struct PhotoExtractorTests {
  static func extract(_ bytes: [UInt8], _ name: String, maxBytes: Int = 64 << 20) throws
    -> ExtractionOutcome
  {
    let directory = try TestPaths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = try ImageFixtures.write(bytes, name, in: directory)
    let request = ExtractionRequest(
      path: path, mimeType: "image/x-test", contentType: "public.image",
      limits: ExtractionLimits(maxBytes: maxBytes))
    return try PhotoExtractor().extract(request)
  }

  /// A camera-like TIFF: 640×480, Make, Orientation, and an EXIF IFD with exposure settings.
  static func cameraTIFF(bigEndian: Bool, padding: Int = 0) -> [UInt8] {
    var tiff = TIFFBuilder(bigEndian: bigEndian)
    tiff.padding = padding
    tiff.ifd0 = [
      tiff.long(0x0100, 640), tiff.long(0x0101, 480), tiff.ascii(0x010F, "TestCam"),
      tiff.ascii(0x0110, "Model One"), tiff.short(0x0112, 6),
    ]
    tiff.exif = [
      tiff.rational(0x829A, 1, 250), tiff.rational(0x829D, 28, 10), tiff.short(0x8827, 400),
      tiff.ascii(0x9003, "2024:05:06 07:08:09"), tiff.ascii(0x9011, "+02:00"),
      tiff.short(0x9209, 0x19), tiff.rational(0x920A, 50, 1), tiff.short(0xA405, 75),
      tiff.ascii(0xA434, "Test Lens 50mm"),
    ]
    return tiff.build()
  }

  static func expectCameraAttributes(_ attributes: AttributeSet) {
    #expect(attributes.number(.pixelWidth) == 640)
    #expect(attributes.number(.pixelHeight) == 480)
    #expect(attributes.text(.acquisitionMake) == "TestCam")
    #expect(attributes.text(.acquisitionModel) == "Model One")
    #expect(attributes.text(.lensModel) == "Test Lens 50mm")
    #expect(attributes.number(.orientation) == 6)
    #expect(attributes.number(.exposureTime) == 1.0 / 250)
    #expect(attributes.number(.fNumber) == 2.8)
    #expect(abs((attributes.number(.aperture) ?? 0) - 2 * log2(2.8)) < 1e-9)
    #expect(attributes.number(.isoSpeed) == 400)
    #expect(attributes.first(.flashOn)?.bool == true)
    #expect(attributes.number(.focalLength) == 50)
    #expect(attributes.number(.focalLength35mm) == 75)
    // 07:08:09 at +02:00 is 05:08:09 UTC.
    #expect(
      attributes.first(.contentCreationDate)?.date == ISO8601Dates.parse("2024-05-06T05:08:09Z"))
  }

  @Test(arguments: [true, false])
  func tiffInEitherByteOrder(bigEndian: Bool) throws {
    let outcome = try Self.extract(Self.cameraTIFF(bigEndian: bigEndian), "camera.tif")
    Self.expectCameraAttributes(outcome.attributes)
    #expect(outcome.problems.isEmpty)
  }

  /// IFD0 100 KB into the file: libexif alone would see none of it.
  @Test(arguments: [true, false])
  func tiffDirectoriesPast64KiBAreRelocated(bigEndian: Bool) throws {
    let outcome = try Self.extract(
      Self.cameraTIFF(bigEndian: bigEndian, padding: 100_000), "scan.tif")
    Self.expectCameraAttributes(outcome.attributes)
  }

  @Test(arguments: [true, false])
  func jpegWithExif(bigEndian: Bool) throws {
    let jpeg = ImageFixtures.jpeg(
      width: 4000, height: 3000, exif: Self.cameraTIFF(bigEndian: bigEndian))
    let outcome = try Self.extract(jpeg, "photo.jpg")
    var attributes = outcome.attributes
    // The frame header wins over IFD0's 640×480: real pixels, not what metadata claims.
    #expect(attributes.number(.pixelWidth) == 4000)
    #expect(attributes.number(.pixelHeight) == 3000)
    attributes.set(.number(640), for: .pixelWidth)
    attributes.set(.number(480), for: .pixelHeight)
    Self.expectCameraAttributes(attributes)
  }

  @Test func pngWithExifChunk() throws {
    let png = ImageFixtures.png(width: 321, height: 123, exif: Self.cameraTIFF(bigEndian: false))
    let outcome = try Self.extract(png, "shot.png")
    #expect(outcome.attributes.number(.pixelWidth) == 321)
    #expect(outcome.attributes.number(.pixelHeight) == 123)
    #expect(outcome.attributes.text(.acquisitionMake) == "TestCam")
    #expect(outcome.attributes.number(.fNumber) == 2.8)
  }

  @Test func pngWithXMPOnly() throws {
    let xmp = """
      <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about="" xmlns:tiff="http://ns.adobe.com/tiff/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/"
        tiff:Make="XMPCam" exif:FNumber="56/10" exif:GPSLatitude="48,51.5S" exif:GPSLongitude="2,17,40W">
      <exif:ISOSpeedRatings><rdf:Seq><rdf:li>800</rdf:li></rdf:Seq></exif:ISOSpeedRatings>
      <exif:Flash rdf:parseType="Resource"><exif:Fired>True</exif:Fired></exif:Flash>
      </rdf:Description></rdf:RDF></x:xmpmeta>
      """
    let outcome = try Self.extract(ImageFixtures.png(width: 10, height: 20, xmp: xmp), "edited.png")
    let attributes = outcome.attributes
    #expect(attributes.text(.acquisitionMake) == "XMPCam")
    #expect(attributes.number(.fNumber) == 5.6)
    #expect(attributes.number(.isoSpeed) == 800)
    #expect(attributes.first(.flashOn)?.bool == true)
    #expect(abs((attributes.number(.latitude) ?? 0) + (48 + 51.5 / 60)) < 1e-9)
    #expect(abs((attributes.number(.longitude) ?? 0) + (2 + 17.0 / 60 + 40.0 / 3600)) < 1e-9)
  }

  @Test func exifWinsOverXMP() throws {
    let xmp = """
      <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description xmlns:tiff="http://ns.adobe.com/tiff/1.0/"><tiff:Make>Other</tiff:Make></rdf:Description>
      </rdf:RDF></x:xmpmeta>
      """
    let png = ImageFixtures.png(
      width: 1, height: 1, exif: Self.cameraTIFF(bigEndian: true), xmp: xmp)
    #expect(try Self.extract(png, "both.png").attributes.text(.acquisitionMake) == "TestCam")
  }

  @Test func gifScreenSize() throws {
    let outcome = try Self.extract(ImageFixtures.gif(width: 500, height: 300), "anim.gif")
    #expect(outcome.attributes.number(.pixelWidth) == 500)
    #expect(outcome.attributes.number(.pixelHeight) == 300)
  }

  @Test func webpExtendedWithExif() throws {
    let webp = ImageFixtures.webpExtended(
      width: 1920, height: 1080, exif: Self.cameraTIFF(bigEndian: true))
    let outcome = try Self.extract(webp, "pic.webp")
    #expect(outcome.attributes.number(.pixelWidth) == 1920)
    #expect(outcome.attributes.number(.pixelHeight) == 1080)
    #expect(outcome.attributes.text(.acquisitionModel) == "Model One")
  }

  @Test func webpLossyAndLossless() throws {
    let lossy = try Self.extract(ImageFixtures.webpLossy(width: 800, height: 600), "a.webp")
    #expect(lossy.attributes.number(.pixelWidth) == 800)
    #expect(lossy.attributes.number(.pixelHeight) == 600)
    let lossless = try Self.extract(ImageFixtures.webpLossless(width: 16383, height: 2), "b.webp")
    #expect(lossless.attributes.number(.pixelWidth) == 16383)
    #expect(lossless.attributes.number(.pixelHeight) == 2)
  }

  /// The container is recognised by its bytes: a PNG named .jpg still reads as a PNG.
  @Test func formatComesFromBytesNotName() throws {
    let outcome = try Self.extract(ImageFixtures.png(width: 7, height: 9), "liar.jpg")
    #expect(outcome.attributes.number(.pixelWidth) == 7)
  }

  /// MaxBytes is a read limit: a frame header beyond it is not read, and the problem says so.
  @Test func maxBytesStopsReading() throws {
    var jpeg = ImageFixtures.jpeg(width: 10, height: 10, exif: Self.cameraTIFF(bigEndian: true))
    // An APP2 segment of 60 KB between EXIF and the frame header.
    let sof = jpeg.firstIndex(of: 0xC0)! - 1
    let app2: [UInt8] =
      [0xFF, 0xE2] + ImageFixtures.be16(60_002) + [UInt8](repeating: 0, count: 60_000)
    jpeg.insert(contentsOf: app2, at: sof)
    let limited = try Self.extract(jpeg, "big.jpg", maxBytes: 4096)
    #expect(limited.attributes.text(.acquisitionMake) == "TestCam")
    #expect(limited.attributes.number(.pixelWidth) == nil)
    #expect(!limited.problems.isEmpty)
    let unlimited = try Self.extract(jpeg, "big.jpg")
    #expect(unlimited.attributes.number(.pixelWidth) == 10)
  }

  /// The DNG in the corpus keeps an 8×8 preview in IFD0 and the 3516×2328 raw in a SubIFD.
  @Test func dngSizeComesFromFullResolutionSubIFD() throws {
    let path = TestPaths.corpus.appendingPathComponent("images/exiftool-DNG.dng").path
    let outcome = try PhotoExtractor().extract(
      ExtractionRequest(
        path: path, mimeType: "image/x-adobe-dng", contentType: "com.adobe.raw-image",
        limits: ExtractionLimits()))
    #expect(outcome.attributes.number(.pixelWidth) == 3516)
    #expect(outcome.attributes.number(.pixelHeight) == 2328)
    #expect(outcome.attributes.text(.acquisitionModel) == "Canon EOS 350D DIGITAL")
  }
}
