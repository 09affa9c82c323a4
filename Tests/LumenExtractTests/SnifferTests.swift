import Foundation
import Glibc
import LumenModel
import Testing

@testable import LumenExtract

@Suite("Sniffer: libmagic where it pays, extensions where they settle")
struct SnifferTests {
  let registry = SniffFixtures.registry

  @Test func textWithATellingExtensionNeverReachesLibmagic() throws {
    let scratch = SniffScratch()
    let sniffer = Sniffer(registry: registry)
    let cases = [
      ("script.py", "import os\nprint(os.name)\n", "public.python-script"),
      ("notes.md", "# Title\n\nSome *text*.\n", "net.daringfireball.markdown"),
      ("data.json", "{\"a\": 1}\n", "public.json"),
      ("page.html", "<p>hello</p>\n", "public.html"),
      ("Main.swift", "let x = 1\n", "public.swift-source"),
      ("table.csv", "a,b\n1,2\n", "public.comma-separated-values-text"),
      ("drawing.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n", "public.svg-image"),
    ]
    for (name, text, type) in cases {
      let result = try sniffer.sniffFile(atPath: scratch.write(name, text))
      #expect(result.contentType == type, "\(name)")
      #expect(result.method == .textExtension)
    }
    #expect(sniffer.statistics.textMagicCalls == 0)
    #expect(sniffer.statistics.binaryMagicCalls == 0)
    #expect(sniffer.statistics.settledByExtension == cases.count)
  }

  @Test func textWithoutATellingExtensionAsksLibmagic() throws {
    let scratch = SniffScratch()
    let sniffer = Sniffer(registry: registry)
    let python = try sniffer.sniffFile(
      atPath: scratch.write("run", "#!/usr/bin/env python3\nprint('hi')\n"))
    #expect(python.contentType == "public.python-script")
    #expect(python.method == .magic)
    let shell = try sniffer.sniffFile(atPath: scratch.write("configure", "#!/bin/sh\necho hi\n"))
    #expect(shell.contentType == "public.shell-script")
    let plain = try sniffer.sniffFile(atPath: scratch.write("README", "Read me, please.\n"))
    #expect(plain.contentType == "public.plain-text")
    #expect(plain.mimeType == "text/plain")
    #expect(sniffer.statistics.textMagicCalls == 3)
  }

  @Test func contentBeatsAMisleadingExtension() throws {
    let scratch = SniffScratch()
    let sniffer = Sniffer(registry: registry)
    let jpeg = try Data(
      contentsOf: URL(fileURLWithPath: SniffFixtures.corpus + "/images/DSCN0010.jpg"))
    let disguised = try sniffer.sniffFile(atPath: scratch.write("photo.txt", Array(jpeg)))
    #expect(disguised.contentType == "public.jpeg")
    #expect(disguised.mimeType == "image/jpeg")
    // Text named like an image is text.
    let text = try sniffer.sniffFile(atPath: scratch.write("fake.jpg", "just words here\n"))
    #expect(text.contentType == "public.plain-text")
    #expect(sniffer.statistics.binaryMagicCalls == 1)
    #expect(sniffer.statistics.textMagicCalls == 1)
  }

  @Test func emptyFilesAndUnknownBytes() throws {
    let scratch = SniffScratch()
    let sniffer = Sniffer(registry: registry)
    let emptyText = try sniffer.sniffFile(atPath: scratch.write("empty.txt", []))
    #expect(emptyText.contentType == "public.plain-text")
    #expect(emptyText.method == .emptyFile)
    let empty = try sniffer.sniffFile(atPath: scratch.write("empty", []))
    #expect(empty.contentType == "public.data")
    #expect(empty.mimeType == "application/x-empty")
    let noise = try sniffer.sniffFile(
      atPath: scratch.write("blob", [0, 1, 2, 3, 0, 0xFE, 0x80, 7]))
    #expect(noise.contentType == "public.data")
    #expect(ContentTypeRegistry.data == noise.contentType)
  }

  @Test func specialFilesAreTypedWithoutBeingOpened() throws {
    let scratch = SniffScratch()
    let sniffer = Sniffer(registry: registry)
    let fifo = scratch.root + "/pipe"
    #expect(mkfifo(fifo, 0o644) == 0)
    let result = try sniffer.sniffFile(atPath: fifo)
    #expect(result.mimeType == "inode/fifo")
    #expect(result.method == .fileKind)
    #expect(symlink("/etc/passwd", scratch.root + "/link") == 0)
    let link = try sniffer.sniffFile(atPath: scratch.root + "/link")
    #expect(link.contentType == "public.symlink")
    let folder = try sniffer.sniffFile(atPath: scratch.root)
    #expect(folder.contentType == "public.folder")
    #expect(sniffer.sniff(kind: .regular) == nil)
  }

  @Test func onlyTheHeadIsRead() throws {
    let scratch = SniffScratch()
    let sniffer = Sniffer(registry: registry, headCapacity: 4096)
    let big = scratch.write("big.log", [UInt8](repeating: 0x61, count: 1 << 20))
    _ = try sniffer.sniffFile(atPath: big)
    #expect(sniffer.statistics.headBytesRead == 4096)
  }

  @Test func unreadableFilesThrowWithTheCall() throws {
    let sniffer = Sniffer(registry: registry)
    #expect(throws: SniffError(call: "lstat", code: ENOENT)) {
      try sniffer.sniffFile(atPath: "/nonexistent/file")
    }
  }

  @Test(
    arguments: [
      ("archive.tar.gz", "gz"), (".bashrc", nil), ("Makefile", nil), ("a.", nil),
      ("photo.JPG", "JPG"), ("x.y.z", "z"),
    ] as [(String, String?)])
  func extensions(name: String, ext: String?) {
    #expect(Sniffer.fileExtension(of: name) == ext)
  }
}

/// Every corpus file against what independent tools (exiftool, mutagen) say it is.
@Suite("Sniffer on the shared corpus")
struct SniffCorpusTests {
  struct Sample: Sendable, CustomTestStringConvertible {
    let file: String
    let expectedType: String
    var testDescription: String { file }
  }

  static let samples: [Sample] = {
    let registry = SniffFixtures.registry
    let audioFormats = [
      "EasyMP3": "public.mp3", "EasyMP4": "public.mpeg-4-audio", "FLAC": "org.xiph.flac",
      "OggFLAC": "org.xiph.ogg-audio", "OggOpus": "org.xiph.opus",
      "OggVorbis": "org.xiph.ogg-vorbis",
    ]
    var samples: [Sample] = []
    for family in ["images", "documents", "audio", "html"] {
      let path = SniffFixtures.corpus + "/expected/\(family).jsonl"
      guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
      for line in text.split(separator: "\n") {
        guard
          let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
          let file = object["file"] as? String
        else { continue }
        let exiftool = object["exiftool"] as? [String: Any]
        let mime = (object["MIMEType"] as? String) ?? (exiftool?["File:MIMEType"] as? String)
        let expected: String?
        if let mime {
          expected = registry.type(forMIME: mime)
        } else if let format = object["format"] as? String {
          expected = audioFormats[format]
        } else if family == "html" {
          expected = "public.html"
        } else {
          expected = nil
        }
        samples.append(Sample(file: file, expectedType: expected ?? "unknown oracle answer"))
      }
    }
    return samples
  }()

  @Test func theCorpusIsThere() {
    #expect(Self.samples.count >= 190, "expected ../shared/corpus beside the package")
  }

  @Test(arguments: samples)
  func sniffedTypeMatchesTheOracle(_ sample: Sample) throws {
    let sniffer = Sniffer(registry: SniffFixtures.registry)
    let result = try sniffer.sniffFile(atPath: SniffFixtures.corpus + "/" + sample.file)
    #expect(result.contentType == sample.expectedType)
    #expect(sniffer.statistics.textMagicCalls == 0, "text here always has a telling extension")
  }
}
