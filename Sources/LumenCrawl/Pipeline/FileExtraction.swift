import LumenExtract
import LumenModel
import LumenStore

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

  /// What the rule chain gave: the outcome with its extractor's stamp, or, when nothing read
  /// the file, no attributes under `noExtractor` (the rules' fingerprint, see
  /// `RulesFingerprint`).
  public init(_ result: ExtractionResult, noExtractor: ExtractorStamp) {
    guard let outcome = result.outcome, let extractor = result.extractor else {
      self.init(
        attributes: AttributeSet(), problems: result.failures.map { "\($0)" },
        extractor: noExtractor)
      return
    }
    self.init(
      attributes: outcome.attributes,
      problems: outcome.problems + result.failures.map { "\($0)" },
      extractor: ExtractorStamp(name: extractor.name, version: extractor.version))
  }
}
