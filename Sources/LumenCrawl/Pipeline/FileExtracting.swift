import LumenExtract
import LumenModel
import LumenStore

/// The step that reads a file's own metadata (EXIF, tags, document properties) after the
/// pipeline has stated and sniffed it. Pluggable so that the crawl works, and is tested, with
/// file-system attributes and types alone; the extractor registry plugs in here.
///
/// Called from several crawl threads at once: an implementation keeps per-thread resources
/// (libmagic cookies, parsers) itself.
public protocol FileExtracting: Sendable {
  /// Whether an item extracted by `stamp` (nil: no extractor ran) is current. A false answer
  /// re-extracts an unchanged file, which is how a new extractor version reaches old items.
  func isCurrent(_ stamp: ExtractorStamp?) -> Bool

  /// The attributes of one regular file, or nil when no extractor applies.
  func extract(_ request: ExtractionRequest) -> FileExtraction?

  /// Whether any file may be read by an extractor. A crawl that only states and sniffs files
  /// waits on its writer; one that extracts waits on its extractors, and its first crawl then
  /// keeps full text current as it goes (see `IndexingPipeline`).
  var readsFiles: Bool { get }
}

extension FileExtracting {
  public var readsFiles: Bool { true }
}
