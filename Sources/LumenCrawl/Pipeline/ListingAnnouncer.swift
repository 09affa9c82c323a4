/// Tells the caller about each subfolder of a listing before the walk descends into it (the
/// walk lists a folder's subfolders only after its visit returns), then visits as usual: the
/// watcher places its watch on a folder before the folder is listed.
final class ListingAnnouncer: DirectoryVisitor {
  private let inner: DirectoryVisitor
  private let willList: @Sendable (String) -> Void

  init(_ inner: DirectoryVisitor, willList: @escaping @Sendable (String) -> Void) {
    self.inner = inner
    self.willList = willList
  }

  func visit(_ listing: DirectoryListing) {
    for entry in listing.entries where entry.status.kind == .directory { willList(entry.path) }
    inner.visit(listing)
  }

  func failed(_ error: CrawlError, isRoot: Bool) { inner.failed(error, isRoot: isRoot) }
  func finish() { inner.finish() }
}
