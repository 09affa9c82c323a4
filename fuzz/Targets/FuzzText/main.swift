import FuzzSupport
import LumenExtract

/// The fuzz target: the TextExtractor extractor on one input, as a .txt file of type text/plain.
func fuzzText(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data else { return 0 }
  FuzzExtraction.run(
    TextExtractor.self, data: data, size: size, fileExtension: "txt", mimeType: "text/plain",
    contentType: "public.plain-text")
  return 0
}

FuzzDriver.run { data, size in fuzzText(data, size) }
