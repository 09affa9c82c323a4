import Foundation
import LumenModel

extension SearchableIndex {
  /// How an index is opened and written.
  public struct Options: Sendable {
    /// Open an existing index for reading only: nothing is created, migrated, swept or written.
    /// `lumen find` and `lumen show` use this, so a query never changes the index.
    public var readOnly: Bool
    /// The most items one write transaction holds: big enough to amortise the commit, small
    /// enough that a reader or the watcher never waits long for the writer.
    public var batchSize: Int
    /// How long an item lives when neither it nor its domain says: Core Spotlight's month.
    public var defaultExpiration: TimeInterval
    /// How long to wait for another process's write lock before failing.
    public var busyTimeout: TimeInterval
    /// When set, an item that has a `contentType` but no `contentTypeTree` gets the tree from
    /// this registry when indexed, as Core Spotlight derives it; nil keeps items as given.
    public var contentTypes: ContentTypeRegistry?
    /// Delete expired items when a writable index is opened.
    public var sweepsOnOpen: Bool
    /// The time used for expiration. Tests move it; everything else leaves it alone.
    public var clock: @Sendable () -> Date

    public init(
      readOnly: Bool = false, batchSize: Int = 500,
      defaultExpiration: TimeInterval = 30 * 24 * 3600, busyTimeout: TimeInterval = 10,
      contentTypes: ContentTypeRegistry? = nil, sweepsOnOpen: Bool = true,
      clock: @escaping @Sendable () -> Date = { Date() }
    ) {
      self.readOnly = readOnly
      self.batchSize = batchSize
      self.defaultExpiration = defaultExpiration
      self.busyTimeout = busyTimeout
      self.contentTypes = contentTypes
      self.sweepsOnOpen = sweepsOnOpen
      self.clock = clock
    }
  }
}
