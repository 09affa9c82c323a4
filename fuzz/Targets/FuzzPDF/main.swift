import FuzzSupport
import LumenExtract

/// The fuzz target: the PDFExtractor extractor on one input, as a .pdf file of type application/pdf.
func fuzzPDF(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data else { return 0 }
  FuzzExtraction.run(
    PDFExtractor.self, data: data, size: size, fileExtension: "pdf", mimeType: "application/pdf",
    contentType: "com.adobe.pdf")
  return 0
}

FuzzDriver.run { data, size in fuzzPDF(data, size) }
