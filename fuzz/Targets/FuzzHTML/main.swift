import FuzzSupport
import LumenExtract

/// The fuzz target: the HTMLExtractor extractor on one input, as a .html file of type text/html.
func fuzzHTML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data else { return 0 }
  FuzzExtraction.run(
    HTMLExtractor.self, data: data, size: size, fileExtension: "html", mimeType: "text/html",
    contentType: "public.html")
  return 0
}

FuzzDriver.run { data, size in fuzzHTML(data, size) }
