/// One rule from a rules/*.rule file: which extractor reads which MIME types, with what limits.
public struct ExtractionRule: Sendable, Equatable, Codable {
  /// The extractor's name in `ExtractorCatalog` (`photo`, `music`, …).
  public let extractor: String
  public let mimeTypes: [MIMEPattern]
  /// Types the rule leaves alone even though `mimeTypes` matches them.
  public let blockMimeTypes: [MIMEPattern]
  /// The content type given to matched files whose MIME type no content-type declaration
  /// names (as Tracker's FallbackRdfTypes, it holds even when extraction fails).
  public let contentType: String?
  /// Higher runs first; equal priorities keep file-name order.
  public let priority: Int
  public let limits: ExtractionLimits
  public let source: RuleSource

  public init(
    extractor: String, mimeTypes: [MIMEPattern], blockMimeTypes: [MIMEPattern] = [],
    contentType: String? = nil, priority: Int = 0, limits: ExtractionLimits = ExtractionLimits(),
    source: RuleSource
  ) {
    self.extractor = extractor
    self.mimeTypes = mimeTypes
    self.blockMimeTypes = blockMimeTypes
    self.contentType = contentType
    self.priority = priority
    self.limits = limits
    self.source = source
  }

  public func matches(_ mimeType: String) -> Bool {
    mimeTypes.contains { $0.matches(mimeType) } && !blockMimeTypes.contains { $0.matches(mimeType) }
  }
}
