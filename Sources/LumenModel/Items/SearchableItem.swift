import Foundation

/// What a program (or the crawler) puts in an index, in Core Spotlight's shape.
public struct SearchableItem: Sendable, Equatable {
  /// Unique within an index. File items use their absolute path.
  public var uniqueIdentifier: String
  /// Groups items for deletion; hierarchical by dots, so deleting `mail` deletes `mail.inbox`.
  public var domainIdentifier: String?
  public var attributeSet: AttributeSet
  /// When the item disappears from queries. Nil means the index's default (a month after it
  /// was last indexed); indexing the item again extends it.
  public var expirationDate: Date?
  /// Merge into the existing item instead of replacing it; an update for an item that does not
  /// exist is dropped, as Core Spotlight does.
  public var isUpdate: Bool

  public init(
    uniqueIdentifier: String, domainIdentifier: String? = nil,
    attributeSet: AttributeSet = AttributeSet(), expirationDate: Date? = nil,
    isUpdate: Bool = false
  ) {
    self.uniqueIdentifier = uniqueIdentifier
    self.domainIdentifier = domainIdentifier
    self.attributeSet = attributeSet
    self.expirationDate = expirationDate
    self.isUpdate = isUpdate
  }
}
