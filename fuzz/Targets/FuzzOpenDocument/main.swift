import FuzzSupport
import LumenExtract

/// The fuzz target: the OpenDocumentExtractor extractor on one input, as a .odt file of type application/vnd.oasis.opendocument.text.
func fuzzOpenDocument(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data else { return 0 }
  FuzzExtraction.run(
    OpenDocumentExtractor.self, data: data, size: size, fileExtension: "odt",
    mimeType: "application/vnd.oasis.opendocument.text",
    contentType: "org.oasis-open.opendocument.text")
  return 0
}

FuzzDriver.run { data, size in fuzzOpenDocument(data, size) }
