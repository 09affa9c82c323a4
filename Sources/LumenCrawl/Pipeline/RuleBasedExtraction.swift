import LumenExtract
import LumenModel
import LumenStore

/// The crawl's extraction step backed by the rules/ chain (`ExtractionService`): the rules
/// matching a file's MIME type are tried in order until an extractor succeeds. An item records
/// the extractor's name and version, and an item made by an older version (or by an extractor
/// no longer shipped) counts as stale, so an upgrade re-reads exactly the files it concerns.
public struct RuleBasedExtraction: FileExtracting {
  public let service: ExtractionService
  /// Stamped on files no extractor read: see `RulesFingerprint`.
  let noExtractorStamp: ExtractorStamp

  public init(service: ExtractionService) {
    self.service = service
    noExtractorStamp = ExtractorStamp(
      name: "", version: RulesFingerprint.of(rules: service.rules, catalog: service.catalog))
  }

  public var readsFiles: Bool { service.hasExtractors }

  public func isCurrent(_ stamp: ExtractorStamp?) -> Bool {
    guard let stamp else { return true }
    if stamp.name.isEmpty { return stamp == noExtractorStamp }
    return service.catalog.version(of: stamp.name) == stamp.version
  }

  public func extract(_ request: ExtractionRequest) -> FileExtraction? {
    // When nothing reads it, the file is stamped with the rules' fingerprint, so that a new
    // extractor or rule for its type reaches it, and a file every extractor failed on is not
    // retried until then.
    FileExtraction(
      service.extract(
        ExtractionJob(
          path: request.path, mimeType: request.mimeType, contentType: request.contentType)),
      noExtractor: noExtractorStamp)
  }
}
