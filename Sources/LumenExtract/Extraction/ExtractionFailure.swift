/// A rule whose extractor gave nothing: which rule, which extractor, and why.
public struct ExtractionFailure: Sendable, Equatable, Codable, CustomStringConvertible {
  public let rule: RuleSource
  public let extractor: ExtractorIdentity
  public let error: ExtractionError

  public init(rule: RuleSource, extractor: ExtractorIdentity, error: ExtractionError) {
    self.rule = rule
    self.extractor = extractor
    self.error = error
  }

  public var description: String { "\(extractor.name) (\(rule)): \(error)" }
}
