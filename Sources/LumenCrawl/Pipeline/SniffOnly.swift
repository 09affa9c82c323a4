import LumenExtract
import LumenStore

/// No extraction: file-system attributes and the sniffed type only.
public struct SniffOnly: FileExtracting {
  public init() {}
  public func isCurrent(_ stamp: ExtractorStamp?) -> Bool { true }
  public func extract(_ request: ExtractionRequest) -> FileExtraction? { nil }
  public var readsFiles: Bool { false }
}
