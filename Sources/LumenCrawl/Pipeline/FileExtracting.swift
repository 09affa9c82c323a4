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
}

/// What an extractor gave for one file.
public struct FileExtraction: Sendable, Equatable {
  public var attributes: AttributeSet
  /// Parts of the file that were malformed; the rest of `attributes` still counts.
  public var problems: [String]
  /// The extractor that produced `attributes`, or that was running when `failure` happened.
  public var extractor: ExtractorStamp
  /// Set when the extractor took its worker down (a crash, its deadline, its memory cap): the
  /// item keeps only its file-system attributes and type, the failure is recorded in the index
  /// (`lumen status` lists it), and the file is not read again until it or the extractor
  /// changes (`lumen index --retry-failed` tries it anyway).
  public var failure: String?

  public init(
    attributes: AttributeSet, problems: [String] = [], extractor: ExtractorStamp,
    failure: String? = nil
  ) {
    self.attributes = attributes
    self.problems = problems
    self.extractor = extractor
    self.failure = failure
  }

  /// The outcome of the rule chain, or nil when no extractor gave anything.
  public init?(_ result: ExtractionResult) {
    guard let outcome = result.outcome, let extractor = result.extractor else { return nil }
    self.init(
      attributes: outcome.attributes,
      problems: outcome.problems + result.failures.map { "\($0)" },
      extractor: ExtractorStamp(name: extractor.name, version: extractor.version))
  }
}

/// No extraction: file-system attributes and the sniffed type only.
public struct SniffOnly: FileExtracting {
  public init() {}
  public func isCurrent(_ stamp: ExtractorStamp?) -> Bool { true }
  public func extract(_ request: ExtractionRequest) -> FileExtraction? { nil }
}
