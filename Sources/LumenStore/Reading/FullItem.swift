import Foundation
import LumenModel

/// An item with what only the store needs (its row and folder flag).
struct FullItem: Sendable {
  let rowID: Int64
  let identifier: String
  let domainIdentifier: String?
  let attributes: AttributeSet
  let expirationDate: Date?
  /// The item's own date; nil when it follows its domain's.
  let ownExpirationDate: Date?
  let fileStamp: FileStamp?
  let isDirectory: Bool
  let extractor: ExtractorStamp?

  var stored: StoredItem {
    StoredItem(
      identifier: identifier, domainIdentifier: domainIdentifier, attributes: attributes,
      expirationDate: expirationDate, fileStamp: fileStamp, extractor: extractor)
  }
}
