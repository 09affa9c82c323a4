extension ItemWriter {
  /// Deletes the file item at `path` and every file item below it, leaving the folder rows for
  /// `deleteUnusedDirectories` (once per transaction, however many deletions it holds).
  func deleteFiles(underPath path: String) throws {
    if let id = try rowID(forIdentifier: path) { try removeRow(id) }
    try deleteItems(
      where: """
        uid IS NULL AND dir_id IN (SELECT id FROM directory WHERE path = ?1
          OR (path >= ?1 || '/' AND path < ?1 || '0'))
        """, arguments: [SearchableIndex.folderKey(path)])
  }
}
