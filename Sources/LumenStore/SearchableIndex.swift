import Foundation
import GRDB
import LumenModel
import Synchronization

/// A Core Spotlight index on SQLite: the API through which programs, the crawler and the
/// command line index items and query them.
///
/// One database file per index (see `IndexLocation`), in WAL mode so that any number of readers
/// (`lumen find` in other processes) run while one writer (the crawler, the watcher) writes.
/// Writes are transactions of at most `Options.batchSize` items.
///
/// ```swift
/// let index = try SearchableIndex(location: .named("mail"))
/// var attributes = AttributeSet()
/// attributes.set(.text("Lunch on Friday"), for: .title)
/// try await index.indexSearchableItems([
///   SearchableItem(uniqueIdentifier: "msg-1", domainIdentifier: "mail.inbox",
///                  attributeSet: attributes)
/// ])
/// let results = try await index.search(query, options: SearchOptions(limit: 10))
/// ```
public final class SearchableIndex: Sendable {
  public let location: IndexLocation
  public let options: Options
  let pool: DatabasePool
  let layout: StorageLayout
  let state: Mutex<State>
  /// Write transactions committed by this instance (observed through SQLite's commit hook).
  let commits = Mutex(0)
  /// Held while this instance bulk loads (`beginBulkLoad`): says to other writers that the
  /// deferred indexes are not a dead loader's.
  let bulkLoad = Mutex<BulkLoadLock?>(nil)

  struct State: Sendable {
    var registry: AttributeRegistry
    var batch: PendingBatch?
  }

  /// Opens (and unless read-only, creates and migrates) the index at `location`.
  public init(location: IndexLocation, options: Options = Options()) throws {
    guard options.batchSize >= 1 else {
      throw SearchableIndexError.invalidBatchSize(options.batchSize)
    }
    self.location = location
    self.options = options
    if options.readOnly {
      guard location.exists else { throw IndexLocationError.missingDatabase(path: location.path) }
    } else {
      try location.prepareForWriting()
    }
    if let problem = IndexFileInspection.problem(atPath: location.path) {
      throw SearchableIndexError.corrupt(path: location.path, reason: problem)
    }
    var configuration = Configuration()
    configuration.readonly = options.readOnly
    configuration.busyMode = .timeout(options.busyTimeout)
    configuration.label = "lumen"
    configuration.prepareDatabase { db in
      if !db.configuration.readonly {
        try db.execute(sql: "PRAGMA synchronous = NORMAL")
        // Checkpoint every ~40 MB of log rather than 4 MB: a chunk of a crawl dirties thousands
        // of index pages, and checkpointing after nearly every commit doubled the writes.
        try db.execute(sql: "PRAGMA wal_autocheckpoint = 10000")
        // Keep statement journals in memory: each multi-row INSERT of a chunk journals the
        // index pages it touches (megabytes with the date, size and inode indexes), and on disk
        // that journal cost a temporary file's writes per statement (bench/query: +12% items
        // per CPU-second at 500-item transactions).
        try db.execute(sql: "PRAGMA temp_store = MEMORY")
      }
      // 64 MiB of page cache for the writer: a million-item index keeps its hot index pages in
      // memory. Readers (a pool holds several, each with its own cache) do point lookups and
      // one-pass scans that the memory map below serves as well: 8 MiB each, so that a
      // long-running crawler or watcher is not hundreds of MB of duplicated caches. And read
      // the file through a memory map: a query that checks 50,000 candidate rows then reads
      // them from the OS page cache without a system call each (measured: 120 → 47 ms).
      try db.execute(
        sql: "PRAGMA cache_size = \(db.configuration.readonly ? -8192 : -65536)")
      try db.execute(sql: "PRAGMA mmap_size = \(options.memoryMapBytes)")
      StoreFunctions.register(in: db)
    }
    do {
      // Never touch someone else's database (opening a pool would already switch it to WAL):
      // look at what the file holds through a read-only connection first.
      if let foreign = try Self.foreignContent(at: location.path) {
        throw SearchableIndexError.corrupt(path: location.path, reason: foreign)
      }
      pool = try DatabasePool(path: location.path, configuration: configuration)
      let migrator = StoreMigrations.migrator
      if !options.readOnly {
        // Before the migrations: a later one may rebuild an index a dead loader dropped.
        try Self.restoreDeferredIndexes(pool, path: location.path)
        try migrator.migrate(pool)
      }
      let loaded = try pool.read { db -> (StorageLayout, [AttributeKey]) in
        guard try db.tableExists("item") else {
          throw SearchableIndexError.cannotOpen(
            path: location.path, reason: "not a Lumen index, or one that was never written")
        }
        if try migrator.hasBeenSuperseded(db) {
          throw SearchableIndexError.cannotOpen(
            path: location.path, reason: "it was written by a newer version of Lumen")
        }
        guard try migrator.hasCompletedMigrations(db) else {
          throw SearchableIndexError.cannotOpen(
            path: location.path,
            reason: "it was written by an older version of Lumen; 'lumen index' upgrades it")
        }
        return (try StorageLayout.read(db), try Self.customKeys(db))
      }
      layout = loaded.0
      let registry = try AttributeRegistry.builtIn.adding(loaded.1)
      state = Mutex(State(registry: registry, batch: nil))
    } catch let error as SearchableIndexError {
      throw error
    } catch let error as DatabaseError {
      throw Self.translated(error, path: location.path) as? SearchableIndexError
        ?? SearchableIndexError.cannotOpen(path: location.path, reason: error.message ?? "\(error)")
    }
    if !options.readOnly && options.sweepsOnOpen {
      try sweepExpiredNow(options.clock())
    }
  }

  /// The built-in attributes plus the custom keys declared in this index.
  public var registry: AttributeRegistry { state.withLock { $0.registry } }

  /// Runs one write transaction with a writer for this index's layout, then adopts the custom
  /// keys it declared.
  func write<T: Sendable>(_ body: @escaping @Sendable (ItemWriter) throws -> T) async throws -> T {
    guard !options.readOnly else { throw SearchableIndexError.readOnly(path: location.path) }
    let context = makeContext()
    let (result, declared): (T, [AttributeKey])
    do {
      (result, declared) = try await pool.write { db in
        try self.transactionBody(db, context: context, body)
      }
    } catch {
      throw Self.translated(error, path: location.path)
    }
    adopt(declared)
    return result
  }

  /// The same, synchronously (for `init`).
  func writeNow<T>(_ body: (ItemWriter) throws -> T) throws -> T {
    let context = makeContext()
    let (result, declared): (T, [AttributeKey])
    do {
      (result, declared) = try pool.write { db in
        try transactionBody(db, context: context, body)
      }
    } catch {
      throw Self.translated(error, path: location.path)
    }
    adopt(declared)
    return result
  }

  private func transactionBody<T>(
    _ db: Database, context: WriteContext, _ body: (ItemWriter) throws -> T
  ) throws -> (T, [AttributeKey]) {
    db.afterNextTransaction(onCommit: { _ in self.commits.withLock { $0 += 1 } })
    let writer = try ItemWriter(db: db, context: context)
    let result = try body(writer)
    try writer.syncFullText()
    return (result, writer.declaredKeys)
  }

  private func makeContext() -> WriteContext {
    WriteContext(
      layout: layout, registry: registry, now: options.clock(),
      defaultExpiration: options.defaultExpiration, contentTypes: options.contentTypes,
      batchSize: options.batchSize)
  }

  private func adopt(_ declared: [AttributeKey]) {
    guard !declared.isEmpty else { return }
    state.withLock { state in
      if let registry = try? state.registry.adding(declared) { state.registry = registry }
    }
  }

  /// Runs a read with the current registry.
  func read<T: Sendable>(_ body: @escaping @Sendable (Database, AttributeRegistry) throws -> T)
    async throws -> T
  {
    let registry = self.registry
    do {
      return try await pool.read { db in try body(db, registry) }
    } catch {
      throw Self.translated(error, path: location.path)
    }
  }

  /// Why the file at `path` is another program's database, or nil (empty, missing, Lumen's).
  private static func foreignContent(at path: String) throws -> String? {
    var info = stat()
    guard stat(path, &info) == 0, info.st_size > 0 else { return nil }
    var configuration = Configuration()
    configuration.readonly = true
    let probe = try DatabaseQueue(path: path, configuration: configuration)
    defer { try? probe.close() }
    return try probe.read(StoreMigrations.foreignContent)
  }

  /// SQLite's "the disk is full" and "the file is damaged" as the errors the command line
  /// explains; anything else unchanged.
  static func translated(_ error: any Error, path: String) -> any Error {
    guard let error = error as? DatabaseError else { return error }
    switch error.resultCode {
    case .SQLITE_FULL:
      return SearchableIndexError.diskFull(path: path)
    case .SQLITE_CORRUPT, .SQLITE_NOTADB:
      return SearchableIndexError.corrupt(path: path, reason: error.message ?? "\(error)")
    default:
      return error
    }
  }

  static func customKeys(_ db: Database) throws -> [AttributeKey] {
    try Row.fetchAll(
      db,
      sql: """
        SELECT name, value_type, multi_valued, searchable, searchable_by_default, is_unique
        FROM attribute WHERE is_custom = 1 ORDER BY id
        """
    ).compactMap { row in
      guard let type = AttributeValueType(rawValue: row[1]) else { return nil }
      return AttributeKey(
        name: row[0], valueType: type, isMultiValued: row[2], isSearchable: row[3],
        isSearchableByDefault: row[4], isUnique: row[5], isCustom: true)
    }
  }
}
