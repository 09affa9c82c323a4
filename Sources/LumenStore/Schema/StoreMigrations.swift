import GRDB

/// The index's schema, built only by these named migrations. A migration is frozen once it has
/// shipped: a later change (a new built-in attribute that deserves a column, a new index) is a
/// new migration appended to the list, never an edit, because indexes already on disk have
/// recorded which migrations ran.
///
/// The layout and why (measured by bench/query at 1M items):
/// - `item`: one row per item, typed columns for the single-valued built-in attributes (a NULL
///   costs one header byte), so a query on `fileSize` or a date is a column comparison that an
///   index can answer. From v5 those indexes are keyed by the generation of the row id first
///   (`generationShift`), so that writes do not scatter over them.
/// - A file item (identifier = its absolute `path`) stores neither identifier nor path as text:
///   `uid` is NULL and the path is `directory.path || '/' || item.name`. A folder's 10,000 files
///   share one `directory` row, which is also what makes renaming a folder one UPDATE.
/// - `fileName` is kept in `name` when it equals the last path component (flag bit 1), so names
///   are stored once; a different fileName goes in `file_name`.
/// - `domain`, `content_type` (type + its tree) and `extractor` are small tables the item
///   points into, deduplicated.
/// - Multi-valued and custom attributes, and any built-in without a column, go in `value`,
///   keyed by item and indexed by (attribute, value).
/// - Text for full-text search is folded in Swift (SQLite 3.40's trigram tokenizer cannot fold
///   diacritics) and kept in `item_text`, the external content of two FTS5 tables: `item_fts`
///   (words, bm25) and `item_trigram` (substrings of the name-like text).
enum StoreMigrations {
  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1-items") { db in
      try db.execute(sql: v1Tables)
      try db.execute(sql: v1Item)
      try db.execute(sql: v1Indexes)
      try db.execute(sql: v1FullText)
    }
    // Measured by bench/query: at 500-item transactions every index with random keys costs a
    // page write per item per commit, and this one cost a quarter of the write time. File-name
    // equality and prefixes are answered from the trigram index instead.
    migrator.registerMigration("v2-drop-name-index") { db in
      try db.execute(sql: "DROP INDEX item_by_name")
    }
    migrator.registerMigration("v3-failed-extraction") { db in
      try db.execute(sql: v3FailedExtraction)
      try db.execute(sql: "PRAGMA application_id = \(applicationID)")
    }
    // Measured by bench/query at 1M items: "images wider than 4000 px" is 142,000 rows of the
    // width index, and checking each one's type read its `item` row (the count of the `&&`/`||`
    // mix took 245 ms). With the type id in the index entry the check reads the index alone
    // (that part: 112 → 10 ms of CPU). Sizes and dimensions are what people filter together
    // with a kind of file, so their indexes all carry it.
    migrator.registerMigration("v4-covering-kind-and-lean-trigrams") { db in
      for column in v4KindCoveredColumns {
        try db.execute(
          sql: """
            DROP INDEX "item_by_\(column)";
            CREATE INDEX "item_by_\(column)" ON item("\(column)", type_id)
              WHERE "\(column)" IS NOT NULL;
            """)
      }
      // Substrings are looked up as sets of trigrams (`FullTextPieces.trigrams`), and every
      // candidate is checked exactly anyway: the positions (`detail=full`) and the per-row
      // token counts (`columnsize`, only bm25 reads them) cost half the table and 10% of the
      // write time at 500-item transactions (bench/query). Rebuilt from `item_text`.
      try db.execute(
        sql: """
          DROP TABLE item_trigram;
          \(v4Trigram)
          INSERT INTO item_trigram(item_trigram) VALUES ('rebuild');
          """)
    }
    // Measured by bench/query: 100,000 items written after 900,000 in 500-item transactions
    // took 6.0 s with these indexes keyed by value alone and 0.85 s keyed by (generation,
    // value), against 0.26 s for the rows alone (sqlite3 replay). A new item's keys now land in
    // the last generation's few pages instead of one random page per index (see
    // `generationShift`); queries seek each generation (`QueryCompiler.generationTerm`).
    migrator.registerMigration("v5-generation-keyed-attribute-indexes") { db in
      for column in v1IndexedColumns {
        try db.execute(
          sql: """
            DROP INDEX IF EXISTS "item_by_\(column)";
            \(attributeIndex(column));
            """)
      }
    }
    return migrator
  }

  /// Indexed columns whose index also holds `item.type_id` from v4 on (see the migration).
  static let v4KindCoveredColumns = [
    "fileSize", "pixelWidth", "pixelHeight", "duration", "pageCount",
  ]

  /// Row ids per generation of the attribute indexes, as a shift: the indexes on dates, sizes,
  /// titles… are keyed by `(generation, value)` from v5 on (`generationExpression`). Row ids
  /// grow as items are added, so a transaction's new keys all fall in the newest generation, a
  /// few dozen pages per index that stay in the cache, where keys by value alone scattered one
  /// dirty page per item over the whole index and every commit wrote each of them to the log.
  /// A query pays one index seek per generation instead of one: 245 at a million items, a
  /// fraction of a millisecond. 4,096 ids per generation: the newest generation's pages of
  /// every index fit the writer's cache, and a million items make few enough generations.
  static let generationShift = 12

  /// Generations there can be at most: the generation of a row id is taken modulo this. A
  /// watched home creates files for years and its row ids only grow (a deleted item's id is
  /// not given again), so without a bound the seeks of every query would grow with all the
  /// files ever indexed rather than with those indexed now: 100 million ids would be 24,000
  /// generations. Past the bound a generation also holds the rows of earlier laps, a
  /// thousandth of the index, so new keys still land in a few pages.
  static let generationCount = 1024

  /// The expression that keys the attribute indexes (as written in their definitions, which a
  /// query must repeat, with `item.`, for SQLite to use them).
  static let generationExpression = "((id >> \(generationShift)) & \(generationCount - 1))"

  /// The v5 definition of the index on one of `v1IndexedColumns`.
  static func attributeIndex(_ column: String) -> String {
    let typeColumn = v4KindCoveredColumns.contains(column) ? ", type_id" : ""
    return """
      CREATE INDEX "item_by_\(column)" ON item(\(generationExpression), "\(column)"\(typeColumn))
        WHERE "\(column)" IS NOT NULL
      """
  }

  /// Stamped in the file header (`PRAGMA application_id`, as file(1) shows it) from v3 on, so a
  /// Lumen index is recognised as such by its first 100 bytes: "Lumn".
  static let applicationID: Int32 = 0x4C75_6D6E

  /// Why a database that is about to be opened as an index is someone else's, or nil: empty,
  /// or written by Lumen (its application id, or an older index's migration table).
  static func foreignContent(_ db: Database) throws -> String? {
    let tables = try String.fetchAll(
      db,
      sql: """
        SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
        ORDER BY name
        """)
    guard !tables.isEmpty else { return nil }
    let application = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
    if application != 0 && application != applicationID {
      return "it is the database of another program (application id \(application))"
    }
    var hasLumenTables = tables.contains("item") && tables.contains("grdb_migrations")
    if hasLumenTables {
      hasLumenTables =
        try Bool.fetchOne(
          db, sql: "SELECT EXISTS (SELECT 1 FROM grdb_migrations WHERE identifier = 'v1-items')")
        ?? false
    }
    guard hasLumenTables else {
      let listed = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
      return "it is an SQLite database of another program (tables: \(listed))"
    }
    return nil
  }

  /// The single-valued built-in attributes that received a column in v1, with the SQL type.
  /// Frozen with the migration: `path`, `fileName`, `contentType` and `textContent` are kept
  /// elsewhere (see above), every other single-valued built-in is here. A test checks that every
  /// single-valued built-in has a column, so a new built-in comes with a new migration.
  static let v1AttributeColumns: [(name: String, type: String)] = [
    ("title", "TEXT"), ("displayName", "TEXT"), ("contentDescription", "TEXT"),
    ("subject", "TEXT"), ("comment", "TEXT"), ("identifier", "TEXT"), ("creator", "TEXT"),
    ("copyright", "TEXT"), ("headline", "TEXT"), ("version", "TEXT"), ("rating", "REAL"),
    ("information", "TEXT"), ("pageCount", "REAL"), ("pageWidth", "REAL"),
    ("pageHeight", "REAL"), ("securityMethod", "TEXT"), ("pixelWidth", "REAL"),
    ("pixelHeight", "REAL"), ("fNumber", "REAL"), ("aperture", "REAL"), ("focalLength", "REAL"),
    ("focalLength35mm", "REAL"), ("exposureTime", "REAL"), ("isoSpeed", "REAL"),
    ("flashOn", "INTEGER"), ("acquisitionMake", "TEXT"), ("acquisitionModel", "TEXT"),
    ("lensModel", "TEXT"), ("orientation", "REAL"), ("colorSpace", "TEXT"),
    ("bitsPerSample", "REAL"), ("whiteBalance", "REAL"), ("meteringMode", "TEXT"),
    ("exposureProgram", "TEXT"), ("exifVersion", "TEXT"), ("latitude", "REAL"),
    ("longitude", "REAL"), ("altitude", "REAL"), ("city", "TEXT"), ("country", "TEXT"),
    ("stateOrProvince", "TEXT"), ("postalCode", "TEXT"), ("thoroughfare", "TEXT"),
    ("namedLocation", "TEXT"), ("fullyFormattedAddress", "TEXT"), ("duration", "REAL"),
    ("audioSampleRate", "REAL"), ("audioChannelCount", "REAL"), ("audioBitRate", "REAL"),
    ("videoBitRate", "REAL"), ("album", "TEXT"), ("artist", "TEXT"), ("composer", "TEXT"),
    ("musicalGenre", "TEXT"), ("audioTrackNumber", "REAL"), ("recordingDate", "REAL"),
    ("startDate", "REAL"), ("endDate", "REAL"), ("dueDate", "REAL"), ("completionDate", "REAL"),
    ("kind", "TEXT"), ("contentCreationDate", "REAL"), ("contentModificationDate", "REAL"),
    ("lastUsedDate", "REAL"), ("addedDate", "REAL"), ("downloadedDate", "REAL"),
    ("metadataModificationDate", "REAL"), ("fileSize", "REAL"), ("ownerUserID", "REAL"),
    ("ownerGroupID", "REAL"), ("ownerName", "TEXT"), ("fileMode", "REAL"), ("linkTarget", "TEXT"),
  ]

  /// Attribute columns that get a (partial: only rows that have a value) index in v1: the ones
  /// people filter and sort on.
  static let v1IndexedColumns = [
    "contentModificationDate", "contentCreationDate", "lastUsedDate", "addedDate", "fileSize",
    "pageCount", "pixelWidth", "pixelHeight", "duration", "startDate", "endDate", "dueDate",
    "completionDate", "rating", "title", "displayName", "kind",
  ]

  private static let v1Tables = """
    CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value) WITHOUT ROWID;
    CREATE TABLE domain (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      expires REAL);
    CREATE TABLE directory (
      id INTEGER PRIMARY KEY,
      path TEXT NOT NULL UNIQUE);
    CREATE TABLE content_type (
      id INTEGER PRIMARY KEY,
      identifier TEXT,
      tree TEXT);
    CREATE INDEX content_type_by_identifier ON content_type(identifier);
    CREATE TABLE content_type_ancestor (
      type_id INTEGER NOT NULL,
      ordinal INTEGER NOT NULL,
      ancestor TEXT NOT NULL,
      PRIMARY KEY (type_id, ordinal)) WITHOUT ROWID;
    CREATE INDEX content_type_ancestor_by_name ON content_type_ancestor(ancestor);
    CREATE TABLE extractor (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      version INTEGER NOT NULL,
      UNIQUE (name, version));
    CREATE TABLE attribute (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      value_type TEXT NOT NULL,
      multi_valued INTEGER NOT NULL,
      searchable INTEGER NOT NULL,
      searchable_by_default INTEGER NOT NULL,
      is_unique INTEGER NOT NULL,
      is_custom INTEGER NOT NULL);
    CREATE TABLE value (
      item_id INTEGER NOT NULL,
      attribute_id INTEGER NOT NULL,
      ordinal INTEGER NOT NULL,
      value NOT NULL,
      PRIMARY KEY (item_id, attribute_id, ordinal)) WITHOUT ROWID;
    CREATE INDEX value_by_attribute ON value(attribute_id, value);
    """

  private static var v1Item: String {
    let attributeColumns = v1AttributeColumns.map { "  \"\($0.name)\" \($0.type)" }
      .joined(separator: ",\n")
    return """
      CREATE TABLE item (
        id INTEGER PRIMARY KEY,
        uid TEXT,
        domain_id INTEGER,
        expires REAL,
        dir_id INTEGER,
        name TEXT,
        file_name TEXT,
        flags INTEGER NOT NULL DEFAULT 0,
        type_id INTEGER,
        st_dev INTEGER,
        st_ino INTEGER,
        st_size INTEGER,
        st_mtime_ns INTEGER,
        st_ctime_ns INTEGER,
        extractor_id INTEGER,
      \(attributeColumns));
      """
  }

  private static var v1Indexes: String {
    let attributeIndexes = v1IndexedColumns.map {
      "CREATE INDEX \"item_by_\($0)\" ON item(\"\($0)\") WHERE \"\($0)\" IS NOT NULL;"
    }.joined(separator: "\n")
    return """
      CREATE UNIQUE INDEX item_by_uid ON item(uid) WHERE uid IS NOT NULL;
      CREATE INDEX item_by_path ON item(dir_id, name);
      CREATE INDEX item_by_name ON item(name) WHERE name IS NOT NULL;
      CREATE INDEX item_by_file_name ON item(file_name) WHERE file_name IS NOT NULL;
      CREATE INDEX item_by_type ON item(type_id);
      CREATE INDEX item_by_domain ON item(domain_id);
      CREATE INDEX item_by_expiration ON item(expires) WHERE expires IS NOT NULL;
      CREATE INDEX item_by_inode ON item(st_ino, st_dev) WHERE st_ino IS NOT NULL;
      CREATE INDEX item_unnormalized ON item((flags & 4)) WHERE (flags & 4) = 4;
      \(attributeIndexes)
      """
  }

  /// Files whose extractor took its worker down (crash, deadline, memory cap): which file (path
  /// and the stamp it had), which extractor, why, and when. The file's item is indexed all the
  /// same, with the extractor's stamp, so an unchanged file is not read again; a new version of
  /// the file or of the extractor, or `lumen index --retry-failed`, tries it once more. Keyed by
  /// path and kept in step with the items by the file writes (moves, deletions, re-indexing).
  private static let v3FailedExtraction = """
    CREATE TABLE failed_extraction (
      path TEXT PRIMARY KEY NOT NULL,
      st_dev INTEGER NOT NULL,
      st_ino INTEGER NOT NULL,
      st_size INTEGER NOT NULL,
      st_mtime_ns INTEGER NOT NULL,
      st_ctime_ns INTEGER NOT NULL,
      extractor_name TEXT NOT NULL,
      extractor_version INTEGER NOT NULL,
      reason TEXT NOT NULL,
      failed_at REAL NOT NULL) WITHOUT ROWID;
    """

  private static let v4Trigram = """
    CREATE VIRTUAL TABLE item_trigram USING fts5(
      terms, content='item_text', content_rowid='item_id',
      tokenize='trigram case_sensitive 1', detail=none, columnsize=0);
    """

  private static let v1FullText = """
    CREATE TABLE item_text (
      item_id INTEGER PRIMARY KEY,
      text_content TEXT,
      words TEXT,
      terms TEXT);
    CREATE VIRTUAL TABLE item_fts USING fts5(
      words, content='item_text', content_rowid='item_id',
      tokenize='unicode61 remove_diacritics 2');
    CREATE VIRTUAL TABLE item_trigram USING fts5(
      terms, content='item_text', content_rowid='item_id',
      tokenize='trigram case_sensitive 1');
    """
}
