/// Receives the walk's folders, one visitor per walk thread, on that thread. What a visitor does
/// with a listing (compare with the index, sniff, extract) runs in parallel with the other
/// threads' visits; the walk descends into a folder's subfolders once its visit returns.
public protocol DirectoryVisitor: AnyObject {
  func visit(_ listing: DirectoryListing)
  /// A folder that could not be read: it has no listing, and nothing below it was walked.
  func failed(_ error: CrawlError, isRoot: Bool)
  /// The thread is done; flush what the visitor holds.
  func finish()
}
