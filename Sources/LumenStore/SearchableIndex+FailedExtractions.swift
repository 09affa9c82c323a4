import Foundation
import GRDB

/// The record of files whose extraction failed in a worker (see `FailedExtraction`). Written
/// by `indexFiles` from `FileRecord.extractionFailure`, in the same transaction as the item, so
/// a crash never leaves one without the other; moves and deletions of file items carry it along.
extension SearchableIndex {
  /// The recorded failures whose file is still indexed, most recent first.
  public func failedExtractions(limit: Int? = nil) async throws -> [FailedExtraction] {
    try await read { db, _ in
      var failures: [FailedExtraction] = []
      let rows = try Row.fetchCursor(
        db,
        sql: """
          SELECT path, st_dev, st_ino, st_size, st_mtime_ns, st_ctime_ns, extractor_name,
            extractor_version, reason, failed_at
          FROM failed_extraction ORDER BY failed_at DESC, path
          """)
      while let row = try rows.next() {
        if let limit, failures.count >= limit { break }
        let path: String = row[0]
        // Items that expired or were deleted through the item API leave their row behind.
        guard try ItemLookup.fileRowID(db, path: path) != nil else { continue }
        failures.append(
          FailedExtraction(
            path: path,
            stamp: FileStamp(
              device: UInt64(bitPattern: row[1]), inode: UInt64(bitPattern: row[2]),
              size: row[3], modificationNanos: row[4], changeNanos: row[5]),
            extractor: ExtractorStamp(name: row[6], version: row[7]), reason: row[8],
            date: Date(timeIntervalSinceReferenceDate: row[9])))
      }
      return failures
    }
  }
}

extension ItemWriter {
  /// Replaces the failure record of `path`: cleared by a fresh extraction, set by a failed one.
  func recordExtraction(path: String, stamp: FileStamp, failure: (ExtractorStamp, String)?)
    throws
  {
    if try hasFailureRecords() {
      try db.cachedStatement(sql: "DELETE FROM failed_extraction WHERE path = ?")
        .execute(arguments: [path])
    }
    guard let (extractor, reason) = failure else { return }
    failureRecordsExist = true
    try db.cachedStatement(
      sql: """
        INSERT INTO failed_extraction(path, st_dev, st_ino, st_size, st_mtime_ns, st_ctime_ns,
          extractor_name, extractor_version, reason, failed_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    ).execute(arguments: [
      path, Int64(bitPattern: stamp.device), Int64(bitPattern: stamp.inode), stamp.size,
      stamp.modificationNanos, stamp.changeNanos, extractor.name, extractor.version, reason,
      context.now.timeIntervalSinceReferenceDate,
    ])
  }

  /// Whether `failed_extraction` has any row, read once per transaction: almost always it has
  /// none, and a crawl then skips a DELETE per file.
  private func hasFailureRecords() throws -> Bool {
    if let known = failureRecordsExist { return known }
    let exists =
      try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM failed_extraction)") ?? true
    failureRecordsExist = exists
    return exists
  }

  /// Forgets the failures of `folder` (a `folderKey`) and of everything below it.
  func forgetExtractionFailures(under folder: String) throws {
    try db.execute(
      sql: """
        DELETE FROM failed_extraction WHERE path = ?1 OR (path >= ?1 || '/' AND path < ?1 || '0')
        """, arguments: [folder])
  }

  /// Moves the failure records of `source` and everything below it to `destination`.
  func moveExtractionFailures(from source: String, to destination: String) throws {
    try forgetExtractionFailures(under: destination)
    try db.execute(
      sql: """
        UPDATE failed_extraction SET path = ?2 || substr(path, length(?1) + 1)
        WHERE path = ?1 OR (path >= ?1 || '/' AND path < ?1 || '0')
        """, arguments: [source, destination])
  }
}
