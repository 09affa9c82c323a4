/// An extractor's name and version, recorded with every item it produced so that after an
/// upgrade exactly the files whose extractor changed are read again.
public struct ExtractorIdentity: Sendable, Hashable, Codable, CustomStringConvertible {
  public let name: String
  public let version: Int

  public init(name: String, version: Int) {
    self.name = name
    self.version = version
  }

  public init(_ type: any Extractor.Type) {
    self.init(name: type.name, version: type.version)
  }

  public var description: String { "\(name) \(version)" }
}

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
