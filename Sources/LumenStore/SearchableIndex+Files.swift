import Foundation
import GRDB
import LumenModel

/// File identity for the crawler and the watcher: what was on disk when a file was indexed
/// (device, inode, size, times) and which extractor read it, so that a crawl compares one
/// folder at a time with the disk, skips unchanged files without reading them, and recognises
/// a moved file or folder by its inode instead of extracting it again.
extension SearchableIndex {
  /// Writes file items with their stamps in one transaction (more than `batchSize` records are
  /// split, the client state going with the last part). A record replaces the item at its path.
  public func indexFiles(_ records: [FileRecord], clientState: Data? = nil) async throws {
    // Each chunk's rows are drafted while the one before it is written.
    try await writePipelined(
      try fileChunks(records, clientState: clientState), draft: { await self.drafted($0.0) }
    ) { chunk, drafted in
      try await write { writer in try Self.write(drafted[...], clientState: chunk.1, writer) }
    }
  }

  /// `indexFiles`, on the calling thread, which waits: for a writer with a thread of its own
  /// (a crawl's), which would otherwise hand every batch to an executor, then to GRDB's queue,
  /// and back, each hop waiting for a core while the walk threads keep both busy (first crawl
  /// of 200,000 files: 4.27–4.69 s against 4.37–4.88 s, runs alternated).
  public func indexFilesNow(_ records: [FileRecord], clientState: Data? = nil) throws {
    guard !options.readOnly else { throw SearchableIndexError.readOnly(path: location.path) }
    for (chunk, state) in try fileChunks(records, clientState: clientState) {
      try writeNow { writer in try Self.write(chunk, clientState: state, writer) }
    }
  }

  /// Lays records out in rows ahead of `indexFiles`, on the calling thread: a crawl drafts on
  /// its walk threads what the single writer would otherwise do alone (see `RowDraft`).
  /// Records with custom attribute keys or updates are left for the writer.
  public func draftRows(_ records: inout [FileRecord]) {
    let cache = SearchDocuments.FoldCache()
    for index in records.indices where records[index].draft == nil && !records[index].item.isUpdate
    {
      let item = records[index].item
      var attributes = item.attributeSet
      if attributes[.path] == nil { attributes.set(.text(item.uniqueIdentifier), for: .path) }
      records[index].draft = draft(item.uniqueIdentifier, attributes: attributes, cache: cache)
    }
  }

  /// The transactions of an `indexFiles` call: batches, the client state with the last.
  private func fileChunks(_ records: [FileRecord], clientState: Data?) throws
    -> [(ArraySlice<FileRecord>, Data?)]
  {
    if let clientState, clientState.count > SearchableIndexError.maximumClientStateSize {
      throw SearchableIndexError.clientStateTooLarge(bytes: clientState.count)
    }
    let chunks = records.isEmpty ? [records[...]] : records.chunked(by: options.batchSize)
    return chunks.enumerated().map { position, chunk in
      (chunk, position == chunks.count - 1 ? clientState : nil)
    }
  }

  private static func write(
    _ chunk: ArraySlice<FileRecord>, clientState: Data?, _ writer: ItemWriter
  ) throws {
    var items: [SearchableItem] = []
    var facts: [FileFacts?] = []
    var drafts: [RowDraft?] = []
    items.reserveCapacity(chunk.count)
    facts.reserveCapacity(chunk.count)
    drafts.reserveCapacity(chunk.count)
    for record in chunk {
      var item = record.item
      if record.draft == nil && item.attributeSet[.path] == nil {
        item.attributeSet.set(.text(record.path), for: .path)
      }
      items.append(item)
      facts.append(
        FileFacts(stamp: record.stamp, isDirectory: record.isDirectory, extractor: record.extractor)
      )
      drafts.append(record.draft)
    }
    try writer.write(items, files: facts, drafts: drafts)
    for record in chunk where !record.item.isUpdate {
      try writer.recordExtraction(
        path: record.path, stamp: record.stamp,
        failure: record.extractionFailure.flatMap { reason in
          record.extractor.map { ($0, reason) }
        })
    }
    if let clientState { try writer.storeClientState(clientState) }
  }

  /// The indexed files directly inside a folder, with their stamps: one index range read,
  /// however large the index.
  public func children(ofDirectory path: String) async throws -> [FileEntry] {
    let folder = Self.folderKey(path)
    return try await read { db, _ in try Self.children(db, folder: folder) }
  }

  static func children(_ db: Database, folder: String) throws -> [FileEntry] {
    try Row.fetchAll(
      db.cachedStatement(
        sql: """
          SELECT \(Self.fileEntryColumns)
          FROM item LEFT JOIN extractor ON extractor.id = item.extractor_id
          WHERE item.dir_id = (SELECT id FROM directory WHERE path = ?)
            AND item.uid IS NULL AND item.st_ino IS NOT NULL
          ORDER BY item.name
          """), arguments: [folder]
    ).map(Self.fileEntry)
  }

  /// The indexed file with this device and inode, to recognise a file that moved: its
  /// attributes can follow it instead of being extracted again. With hard links, the first by
  /// path (see `files(device:inode:)`).
  public func fileRecord(device: UInt64, inode: UInt64) async throws -> IndexedFile? {
    try await files(device: device, inode: inode).min { $0.path < $1.path }
  }

  /// Every indexed file with this device and inode (several for hard links).
  public func files(device: UInt64, inode: UInt64) async throws -> [IndexedFile] {
    try await read { db, _ in
      try Row.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT \(Self.fileEntryColumns),
              (SELECT path FROM directory WHERE directory.id = item.dir_id) AS dir_path
            FROM item LEFT JOIN extractor ON extractor.id = item.extractor_id
            WHERE item.st_ino = ? AND item.st_dev = ? AND item.uid IS NULL
            """),
        arguments: [Int64(bitPattern: inode), Int64(bitPattern: device)]
      ).map { row in
        IndexedFile(
          path: StoredPath(directory: row[9], name: row[0]).path,
          entry: Self.fileEntry(row))
      }
    }
  }

  /// Renames one file item, keeping its attributes, stamp and expiration; an item already at
  /// `destination` is replaced, as rename(2) replaces. For a folder, only its own item moves
  /// (see `moveDirectory`). Returns false when nothing is indexed at `source`.
  @discardableResult
  public func moveFile(from source: String, to destination: String) async throws -> Bool {
    try await write { writer in
      try writer.moveExtractionFailures(
        from: Self.folderKey(source), to: Self.folderKey(destination))
      return try writer.moveFile(from: source, to: destination)
    }
  }

  /// Renames a folder: its own item and every item below it, attributes kept. The paths of the
  /// items below are not stored per item but as shared `directory` rows, so this is one UPDATE
  /// of the folder rows whatever the number of files.
  public func moveDirectory(from source: String, to destination: String) async throws {
    let from = Self.folderKey(source)
    let to = Self.folderKey(destination)
    guard !from.isIdentical(to: to) else { return }
    try await write { writer in
      let below = "path >= ?1 || '/' AND path < ?1 || '0'"
      // Whatever was indexed at the destination is replaced.
      try writer.deleteItems(
        where: """
          uid IS NULL AND dir_id IN (SELECT id FROM directory WHERE path = ?1 OR (\(below)))
          """, arguments: [to])
      try writer.db.execute(
        sql: "DELETE FROM directory WHERE path = ?1 OR (\(below))", arguments: [to])
      try writer.db.execute(
        sql: """
          UPDATE directory SET path = ?2 || substr(path, length(?1) + 1)
          WHERE path = ?1 OR (\(below))
          """, arguments: [from, to])
      if !to.isNFC {
        try writer.db.execute(
          sql: """
            UPDATE item SET flags = flags | 4 WHERE dir_id IN (SELECT id FROM directory
              WHERE path = ?1 OR (\(below)))
            """, arguments: [to])
      }
      writer.directoryIDs = [:]
      try writer.moveExtractionFailures(from: from, to: to)
      _ = try writer.moveFile(from: source, to: destination)
    }
  }

  /// Deletes the file item at `path` and every file item below it.
  public func deleteFiles(underPath path: String) async throws {
    try await write { writer in
      try writer.deleteFiles(underPath: path)
      try writer.deleteUnusedDirectories()
    }
  }

  /// A folder path as `directory.path` holds it: no trailing slash, the root as "".
  static func folderKey(_ path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    return String(trimmed)
  }

  /// The columns `fileEntry(_:)` decodes, first in every query that lists file entries.
  static let fileEntryColumns = """
    item.name, item.st_dev, item.st_ino, item.st_size, item.st_mtime_ns, item.st_ctime_ns,
    item.flags, extractor.name, extractor.version
    """

  /// Decodes `fileEntryColumns` by position: a nothing-changed crawl decodes a row per file,
  /// and looking columns up by name (GRDB lowercases each name per lookup) was a tenth of its
  /// CPU time.
  static func fileEntry(_ row: Row) -> FileEntry {
    let flags = ItemFlags(rawValue: row[6] ?? 0)
    let extractor: ExtractorStamp? = (row[7] as String?).map {
      ExtractorStamp(name: $0, version: row[8] ?? 0)
    }
    return FileEntry(
      name: row[0] ?? "",
      stamp: FileStamp(
        device: UInt64(bitPattern: row[1] ?? 0),
        inode: UInt64(bitPattern: row[2] ?? 0), size: row[3] ?? 0,
        modificationNanos: row[4] ?? 0, changeNanos: row[5] ?? 0),
      isDirectory: flags.contains(.isDirectory), extractor: extractor)
  }
}
