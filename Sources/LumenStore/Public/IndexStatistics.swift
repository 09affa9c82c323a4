import Foundation

/// What `lumen status` reports about an index.
public struct IndexStatistics: Sendable, Equatable {
  public var path: String
  /// Every stored item, including the expired ones not yet swept.
  public var itemCount: Int
  /// Items by domain identifier; items without a domain are under "".
  public var itemsByDomain: [String: Int]
  /// Items by top-level content type: the broadest type of the item's tree below the generic
  /// roots (`public.jpeg` counts as `public.image`, `com.adobe.pdf` as itself); "" when untyped.
  public var itemsByContentType: [String: Int]
  /// Items already expired that the next sweep will delete (queries skip them already).
  public var expiredItemCount: Int
  /// Items written through `indexFiles` (they carry a file stamp).
  public var fileItemCount: Int
  /// Declared custom attribute keys.
  public var customKeyCount: Int
  /// Database file plus its write-ahead log and shared-memory file, in bytes.
  public var bytesOnDisk: Int64
  /// Domains renewed with `renewDomain`, with their expiration.
  public var domainExpirations: [String: Date]

  public init(
    path: String, itemCount: Int, itemsByDomain: [String: Int],
    itemsByContentType: [String: Int], expiredItemCount: Int, fileItemCount: Int,
    customKeyCount: Int, bytesOnDisk: Int64, domainExpirations: [String: Date]
  ) {
    self.path = path
    self.itemCount = itemCount
    self.itemsByDomain = itemsByDomain
    self.itemsByContentType = itemsByContentType
    self.expiredItemCount = expiredItemCount
    self.fileItemCount = fileItemCount
    self.customKeyCount = customKeyCount
    self.bytesOnDisk = bytesOnDisk
    self.domainExpirations = domainExpirations
  }
}
