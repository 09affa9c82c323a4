import FuzzSupport
import LumenExtract

/// The fuzz target: the MusicExtractor extractor on one input, as a .mp3 file of type audio/mpeg.
func fuzzMusic(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data else { return 0 }
  FuzzExtraction.run(
    MusicExtractor.self, data: data, size: size, fileExtension: "mp3", mimeType: "audio/mpeg",
    contentType: "public.mp3")
  return 0
}

FuzzDriver.run { data, size in fuzzMusic(data, size) }
