import FuzzSupport
import LumenExtract

/// The fuzz target: the OOXMLExtractor extractor on one input, as a .docx file of type application/vnd.openxmlformats-officedocument.wordprocessingml.document.
func fuzzOOXML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data else { return 0 }
  FuzzExtraction.run(
    OOXMLExtractor.self, data: data, size: size, fileExtension: "docx",
    mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    contentType: "org.openxmlformats.wordprocessingml.document")
  return 0
}

FuzzDriver.run { data, size in fuzzOOXML(data, size) }
