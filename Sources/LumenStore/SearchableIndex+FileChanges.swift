import Foundation
import GRDB
import LumenModel

/// One change the watcher writes: a file item (re)indexed, or a file item and everything below
/// it deleted.
public enum FileChange: Sendable, Equatable {
  case index(FileRecord)
  case delete(path: String)
}

/// The watcher's side of file identity: its changes arrive one path at a time, interleaving new
/// items and deletions, and go in transactions of up to `batchSize` changes applied in order, so
/// that a flood of creations or an `rm -rf` is a few commits rather than one per file.
extension SearchableIndex {
  /// Applies `changes` in order, in transactions of at most `batchSize` changes.
  public func applyFileChanges(_ changes: [FileChange]) async throws {
    for chunk in changes.chunked(by: options.batchSize) {
      let part = Array(chunk)
      try await write { writer in
        var deleted = false
        for change in part {
          switch change {
          case .index(let record):
            var item = record.item
            if item.attributeSet[.path] == nil {
              item.attributeSet.set(.text(record.path), for: .path)
            }
            try writer.write(
              item,
              file: FileFacts(
                stamp: record.stamp, isDirectory: record.isDirectory,
                extractor: record.extractor))
          case .delete(let path):
            try writer.deleteFiles(underPath: path)
            deleted = true
          }
        }
        if deleted { try writer.deleteUnusedDirectories() }
      }
    }
  }

  /// The indexed file at `path`, with its stamp: one lookup by folder and name, for a watcher
  /// that checks single paths (`children(ofDirectory:)` would list the whole folder).
  public func fileEntry(atPath path: String) async throws -> FileEntry? {
    let split = StoredPath(Self.folderKey(path))
    guard let folder = split.directory else { return nil }
    return try await read { db, _ in
      try Row.fetchOne(
        db.cachedStatement(
          sql: """
            SELECT \(Self.fileEntryColumns)
            FROM item LEFT JOIN extractor ON extractor.id = item.extractor_id
            WHERE item.dir_id = (SELECT id FROM directory WHERE path = ?)
              AND item.name = ? AND item.uid IS NULL AND item.st_ino IS NOT NULL
            """), arguments: [folder, split.name]
      ).map(Self.fileEntry)
    }
  }
}
