import LumenExtract
import LumenModel
import LumenStore

/// The crawl's extraction step backed by the rules/ chain (`ExtractionService`): the rules
/// matching a file's MIME type are tried in order until an extractor succeeds. An item records
/// the extractor's name and version, and an item made by an older version (or by an extractor
/// no longer shipped) counts as stale, so an upgrade re-reads exactly the files it concerns.
public struct RuleBasedExtraction: FileExtracting {
  public let service: ExtractionService

  public init(service: ExtractionService) {
    self.service = service
  }

  public func isCurrent(_ stamp: ExtractorStamp?) -> Bool {
    guard let stamp else { return true }
    return service.catalog.version(of: stamp.name) == stamp.version
  }

  public func extract(_ request: ExtractionRequest) -> FileExtraction? {
    FileExtraction(
      service.extract(
        ExtractionJob(
          path: request.path, mimeType: request.mimeType, contentType: request.contentType)))
  }
}
