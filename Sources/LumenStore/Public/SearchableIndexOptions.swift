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
    /// How much of the file connections read through a memory map. A query that checks tens of
    /// thousands of candidate rows reads them from the OS page cache without a system call
    /// each (2.5× faster counts), but every mapped page it touches counts in the process's
    /// resident memory for as long as it runs: a crawler or a watcher that reads its whole
    /// index once would show the index's size as its own. Those set 0.
    public var memoryMapBytes: Int

    public init(
      readOnly: Bool = false, batchSize: Int = 500,
      defaultExpiration: TimeInterval = 30 * 24 * 3600, busyTimeout: TimeInterval = 10,
      contentTypes: ContentTypeRegistry? = nil, sweepsOnOpen: Bool = true,
      clock: @escaping @Sendable () -> Date = { Date() }, memoryMapBytes: Int = 2_147_418_112
    ) {
      self.readOnly = readOnly
      self.batchSize = batchSize
      self.defaultExpiration = defaultExpiration
      self.busyTimeout = busyTimeout
      self.contentTypes = contentTypes
      self.sweepsOnOpen = sweepsOnOpen
      self.clock = clock
      self.memoryMapBytes = memoryMapBytes
    }
  }
}
