import Foundation
import LumenModel
import LumenStore
import Synchronization

/// What the crawl threads and the writer share.
final class PipelineContext: Sendable {
  let index: SearchableIndex
  let scope: Scope
  let builder: FileItemBuilder
  let contentTypes: ContentTypeRegistry
  let options: IndexingPipeline.Options
  let counters = CrawlCounters()
  /// Chunks of at most `PipelineVisitor.chunkSize` records: with the writer busy, about four
  /// batches wait here, however large the folders, and at most `recordTextBytes` of extracted
  /// text. Sixteen chunks rather than four let the walk threads and the writer stall on each
  /// other less (first index of 200,000 files, alternated runs: median 3.87 s against 4.11 s,
  /// +3 MB peak RSS).
  let records = BoundedChannel<[FileRecord]>(capacity: 16, weightLimit: recordTextBytes)

  /// Text the records waiting for the writer may hold (`FileRecord.heldTextBytes`); the
  /// writer's own batch is bounded the same way (`BatchWriter`).
  static let recordTextBytes = 24 << 20
  let storedListings: StoredListings
  let deletions = Mutex<[PendingDeletion]>([])
  let currentFolder = Mutex("")
  /// Folders this crawl added and has not read yet: nothing is indexed below them.
  let newFolders = Mutex<Set<String>>([])
  /// Whether a folder missing from the index has nothing indexed below it, so that the walk
  /// need not ask for its listing. Not when resuming an interrupted crawl: a batch of a folder's
  /// files may have been committed before the batch holding the folder itself (two walk
  /// threads fill the batches), and taking the folder for new would read them all again.
  let newFoldersAreEmpty: Bool
  let state: Mutex<CrawlState>
  /// A never-crawled index holds nothing that could have moved: skip the lookups.
  let looksForMoves: Bool
  /// Files whose failed extraction is to be tried again although they did not change.
  let retrying: Set<String>
  let expiration: Date
  /// Whether commits carry the crawl's client state (a crawl of every root does).
  var recordsState: Bool {
    get { recordingState.load(ordering: .relaxed) }
    set { recordingState.store(newValue, ordering: .relaxed) }
  }
  private let recordingState = Atomic<Bool>(true)
  /// Called before the index moves an item found by inode, so that a caller holding
  /// uncommitted changes (the watcher) writes them first and the move applies after them.
  let beforeMove = Mutex<(@Sendable () -> Void)?>(nil)

  init(
    index: SearchableIndex, scope: Scope, builder: FileItemBuilder,
    contentTypes: ContentTypeRegistry, options: IndexingPipeline.Options, state: CrawlState,
    looksForMoves: Bool, retrying: Set<String> = [], expiration: Date,
    newFoldersAreEmpty: Bool = true
  ) {
    self.newFoldersAreEmpty = newFoldersAreEmpty
    self.index = index
    self.storedListings = StoredListings(index: index)
    self.scope = scope
    self.builder = builder
    self.contentTypes = contentTypes
    self.options = options
    self.state = Mutex(state)
    self.looksForMoves = looksForMoves
    self.retrying = retrying
    self.expiration = expiration
  }
}

/// An item whose file is gone, deleted at the end of the crawl unless a move claimed it.
struct PendingDeletion: Sendable, Hashable {
  let path: String
  let isDirectory: Bool
}
