import LumenModel
import LumenStore

/// What an extractor gave for one file.
public struct FileExtraction: Sendable, Equatable {
  public var attributes: AttributeSet
  /// Parts of the file that were malformed; the rest of `attributes` still counts.
  public var problems: [String]
  public var extractor: ExtractorStamp

  public init(attributes: AttributeSet, problems: [String] = [], extractor: ExtractorStamp) {
    self.attributes = attributes
    self.problems = problems
    self.extractor = extractor
  }
}
