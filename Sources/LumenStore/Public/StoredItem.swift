import Foundation
import LumenModel

/// An item as the index holds it: what `lumen show` prints.
public struct StoredItem: Sendable, Equatable {
  public var identifier: String
  public var domainIdentifier: String?
  public var attributes: AttributeSet
  /// When it stops being returned: its own date, or its domain's when it inherits one.
  public var expirationDate: Date?
  /// For items written through `indexFiles`: what identified the file on disk.
  public var fileStamp: FileStamp?
  public var extractor: ExtractorStamp?

  public init(
    identifier: String, domainIdentifier: String?, attributes: AttributeSet,
    expirationDate: Date?, fileStamp: FileStamp? = nil, extractor: ExtractorStamp? = nil
  ) {
    self.identifier = identifier
    self.domainIdentifier = domainIdentifier
    self.attributes = attributes
    self.expirationDate = expirationDate
    self.fileStamp = fileStamp
    self.extractor = extractor
  }

  /// The item's path, when it has one.
  public var path: String? { attributes.text(.path) }
}
