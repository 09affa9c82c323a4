import LumenTestSupport
import Testing

@testable import LumenModel

@Suite struct FaithfulPathTests {
  @Test func validUTF8IsUnchanged() {
    let path = "/home/u/Crémieux11.tiff"
    #expect(FaithfulPath.decode(Array(path.utf8)) == path)
    #expect(!FaithfulPath.hasEscapes(path))
  }

  @Test func invalidBytesRoundTripAndDisplayEscaped() {
    let bytes: [UInt8] = Array("/tmp/bad-".utf8) + [0xFF, 0xC3, 0x28] + Array(".txt".utf8)
    let decoded = FaithfulPath.decode(bytes)
    #expect(FaithfulPath.encode(decoded) == bytes)
    #expect(FaithfulPath.hasEscapes(decoded))
    #expect(FaithfulPath.display(decoded) == "/tmp/bad-\\xFF\\xC3(.txt")
  }

  @Test func randomByteStringsRoundTrip() {
    var generator = SeededRandom(seed: 42)
    for _ in 0..<2000 {
      let length = Int(generator.next() % 24)
      let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
      #expect(FaithfulPath.encode(FaithfulPath.decode(bytes)) == bytes, "\(bytes)")
    }
  }
}
