import FuzzSupport
import LumenExtract

/// The fuzz target: the EPUBExtractor extractor on one input, as a .epub file of type application/epub+zip.
func fuzzEPUB(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data else { return 0 }
  FuzzExtraction.run(
    EPUBExtractor.self, data: data, size: size, fileExtension: "epub",
    mimeType: "application/epub+zip",
    contentType: "org.idpf.epub-container")
  return 0
}

FuzzDriver.run { data, size in fuzzEPUB(data, size) }
