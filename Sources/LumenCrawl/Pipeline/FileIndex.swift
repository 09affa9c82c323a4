import Foundation
import LumenStore

/// What the pipeline asks of the index: the file API of `SearchableIndex`.
public protocol FileIndex: Sendable {
  /// The indexed entries of one folder (name, stamp, extractor), without their attributes.
  func children(ofDirectory path: String) async throws -> [FileEntry]
  /// Writes file items in one transaction, with the client state of the crawl.
  func indexFiles(_ records: [FileRecord], clientState: Data?) async throws
  /// The item of the file with this identity, wherever it was indexed.
  func fileRecord(device: UInt64, inode: UInt64) async throws -> FileRecord?
  func moveFile(from: String, to: String) async throws
  func moveDirectory(from: String, to: String) async throws
  /// Deletes the item at `path` and every item below it; returns how many.
  func deleteFiles(underPath path: String) async throws -> Int
  func renewDomain(_ domain: String, until expiration: Date) async throws
  func fetchLastClientState() async throws -> Data?
}
