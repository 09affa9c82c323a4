import GRDB

extension ItemWriter {
  /// Keeps SQLite's planner statistics (`sqlite_stat1`) in step with the index's size. Without
  /// them the planner guesses, and for `contentTypeTree == 'public.source-code' && fileSize <
  /// 1000` it walks every source file instead of the few small files. They are refreshed, with
  /// the sampling `analysis_limit` allows (milliseconds), whenever the number of rows has
  /// doubled since the last time.
  func refreshPlannerStatistics() throws {
    guard let next = nextFreeRowID else { return }
    let last =
      try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'analyzed_rows'") ?? 0
    guard next >= 1000, next >= 2 * last else { return }
    try db.execute(sql: "PRAGMA analysis_limit = 1000")
    try db.execute(sql: "ANALYZE")
    try db.execute(
      sql: "INSERT OR REPLACE INTO meta(key, value) VALUES ('analyzed_rows', ?)",
      arguments: [next])
  }
}
