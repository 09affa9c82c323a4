import FuzzSupport
import LumenExtract

/// The fuzz target: the PhotoExtractor extractor on one input, as a .jpg file of type image/jpeg.
func fuzzPhoto(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data else { return 0 }
  FuzzExtraction.run(
    PhotoExtractor.self, data: data, size: size, fileExtension: "jpg", mimeType: "image/jpeg",
    contentType: "public.jpeg")
  return 0
}

FuzzDriver.run { data, size in fuzzPhoto(data, size) }
