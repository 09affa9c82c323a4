import Foundation
import LumenModel
import Testing

@testable import LumenExtract

/// `Sniffer.sniff(name:size:)`: the crawl's typing of a regular file by its name alone, and the
/// evidence that it agrees with reading the file wherever it answers.
@Suite("Sniffer by name: declared extensions settle the type without reading")
struct SniffByNameTests {
  let registry = SniffFixtures.registry

  @Test(
    arguments: [
      ("IMG_0001.jpg", "public.jpeg", "image/jpeg"),
      ("DSC_0002.JPG", "public.jpeg", "image/jpeg"),
      ("song.mp3", "public.mp3", "audio/mpeg"),
      ("paper.pdf", "com.adobe.pdf", "application/pdf"),
      ("notes.md", "net.daringfireball.markdown", "text/markdown"),
      ("main.py", "public.python-script", "text/x-python"),
      ("archive.tar.gz", "org.gnu.gnu-zip-archive", "application/gzip"),
    ])
  func aDeclaredExtensionSettlesTheType(name: String, type: String, mime: String) throws {
    let sniffer = Sniffer(registry: registry)
    let result = try #require(sniffer.sniff(name: name, size: 1234))
    #expect(result.contentType == type)
    #expect(result.mimeType == registry.mimeType(of: type))
    #expect(result.mimeType == mime)
    #expect(result.method == .declaredExtension)
    #expect(sniffer.statistics.settledByName == 1)
    #expect(sniffer.statistics.headBytesRead == 0)
  }

  @Test(
    arguments: [
      "README", "Makefile", ".bashrc", "trailing.", "blob.dat", "firmware.bin", "x.qqqq",
      // Shared by unrelated formats: MPEG-2 transport streams, go.mod, plain text, Graphviz.
      "clip.ts", "go.mod", "notes.asc", "old.doc", "graph.dot", "CLIP.TS",
      // A container whose bytes name the type: HEIF holding HEVC images is HEIC.
      "photo.heif",
    ])
  func namesThatDoNotSettleTheTypeNeedTheHead(name: String) {
    let sniffer = Sniffer(registry: registry)
    #expect(sniffer.sniff(name: name, size: 100) == nil)
    #expect(sniffer.statistics.settledByName == 0)
  }

  @Test func anEmptyFileIsTypedBySizeAndName() throws {
    let sniffer = Sniffer(registry: registry)
    let text = try #require(sniffer.sniff(name: "todo.txt", size: 0))
    #expect(text.contentType == "public.plain-text")
    #expect(text.method == .emptyFile)
    let unnamed = try #require(sniffer.sniff(name: "LOCK", size: 0))
    #expect(unnamed.contentType == ContentTypeRegistry.data)
    #expect(unnamed.mimeType == "application/x-empty")
    let ambiguous = try #require(sniffer.sniff(name: "clip.ts", size: 0))
    #expect(ambiguous.method == .emptyFile)
    #expect(sniffer.statistics.emptyFiles == 3)
  }

  @Test func theAnswerIsTheSameWhenAskedAgain() {
    let sniffer = Sniffer(registry: registry)
    for _ in 0..<3 {
      #expect(sniffer.sniff(name: "a.png", size: 9)?.contentType == "public.png")
      #expect(sniffer.sniff(name: "a.ts", size: 9) == nil)
    }
    #expect(sniffer.statistics.settledByName == 3)
  }

  /// Every corpus file whose name settles its type: reading it (libmagic and the extension
  /// together) gives the same content type, and a MIME type that selects the same extractor
  /// rules, so not reading it changes nothing the index or the extractors see.
  @Test func onTheCorpusTheNameAgreesWithTheContent() throws {
    let rules = try RuleSet.load(
      shippedDirectory: SniffFixtures.rulesFolder, userDirectory: nil)
    let files = try FileManager.default.subpathsOfDirectory(atPath: SniffFixtures.corpus)
      .filter { !$0.hasPrefix("expected/") }
    var compared = 0
    for file in files.sorted() {
      let path = SniffFixtures.corpus + "/" + file
      let attributes = try FileManager.default.attributesOfItem(atPath: path)
      guard attributes[.type] as? FileAttributeType == .typeRegular else { continue }
      let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
      let sniffer = Sniffer(registry: registry)
      guard let byName = sniffer.sniff(name: (file as NSString).lastPathComponent, size: size)
      else { continue }
      let byContent = try sniffer.sniffFile(atPath: path)
      #expect(byName.contentType == byContent.contentType, "\(file)")
      #expect(
        rules.rules(forMIME: byName.mimeType).map(\.extractor)
          == rules.rules(forMIME: byContent.mimeType).map(\.extractor), "\(file)")
      compared += 1
    }
    #expect(compared >= 150, "the corpus beside the package: ../shared/corpus")
  }
}
