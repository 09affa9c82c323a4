import Foundation

/// A file whose extractor took its worker process down (a crash, its deadline, its memory
/// cap), as recorded in the index: what the file was, which extractor, why and when. The file
/// is indexed with its file-system attributes and type all the same, and is not read again
/// until it or that extractor changes.
public struct FailedExtraction: Sendable, Hashable, Codable {
  public var path: String
  /// The file as it was when extraction failed.
  public var stamp: FileStamp
  public var extractor: ExtractorStamp
  public var reason: String
  public var date: Date

  public init(
    path: String, stamp: FileStamp, extractor: ExtractorStamp, reason: String, date: Date
  ) {
    self.path = path
    self.stamp = stamp
    self.extractor = extractor
    self.reason = reason
    self.date = date
  }
}
