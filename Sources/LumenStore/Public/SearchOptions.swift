import LumenModel

/// What a search returns and in which order, as `mdfind`'s options and NSMetadataQuery's
/// sort descriptors say.
public struct SearchOptions: Sendable {
  /// Keep only items whose path lies under one of these folders (`mdfind -onlyin`). Empty
  /// means everywhere. Items without a path are left out when this is not empty.
  public var onlyIn: [String]
  /// At most this many results.
  public var limit: Int?
  public var order: Order
  /// The attributes each result carries; the rest are not read.
  public var fetchAttributes: [AttributeKey]

  public enum Order: Sendable, Equatable {
    /// Storage order: the cheapest, and stable while the index does not change.
    case unordered
    /// Best full-text match first (bm25); storage order when the query has no text to rank.
    case relevance
    /// By attribute values; items missing an attribute sort after those that have it.
    case attributes([SortKey])
  }

  public struct SortKey: Sendable, Equatable {
    public var key: AttributeKey
    public var ascending: Bool
    public init(_ key: AttributeKey, ascending: Bool = true) {
      self.key = key
      self.ascending = ascending
    }
  }

  public init(
    onlyIn: [String] = [], limit: Int? = nil, order: Order = .unordered,
    fetchAttributes: [AttributeKey] = []
  ) {
    self.onlyIn = onlyIn
    self.limit = limit
    self.order = order
    self.fetchAttributes = fetchAttributes
  }
}

/// One match.
public struct SearchResult: Sendable, Equatable {
  public var identifier: String
  /// The `path` attribute, when the item has one (file items always do).
  public var path: String?
  /// Only the keys asked for in `SearchOptions.fetchAttributes`.
  public var attributes: AttributeSet
  /// bm25 relevance when the query had text to rank: higher is better. Zero otherwise.
  public var score: Double

  public init(identifier: String, path: String?, attributes: AttributeSet, score: Double) {
    self.identifier = identifier
    self.path = path
    self.attributes = attributes
    self.score = score
  }
}
