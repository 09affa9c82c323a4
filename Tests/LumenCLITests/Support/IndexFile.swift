import Foundation
import GRDB

/// Looks into an index file directly with SQLite, as an outsider: its integrity, the files it
/// holds, the client state of the last committed batch.
struct IndexFile {
  let path: String

  private func queue() throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.busyMode = .timeout(10)
    return try DatabaseQueue(path: path, configuration: configuration)
  }

  /// How many items the last committed batch left; nil while there is no index yet.
  func itemCount() -> Int? {
    var configuration = Configuration()
    configuration.readonly = true
    guard FileManager.default.fileExists(atPath: path),
      let queue = try? DatabaseQueue(path: path, configuration: configuration)
    else { return nil }
    defer { try? queue.close() }
    return try? queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item") }
  }

  /// `PRAGMA integrity_check`: "ok", or SQLite's list of problems.
  func integrity() throws -> String {
    let queue = try queue()
    defer { try? queue.close() }
    return try queue.read { db in
      try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; ")
    }
  }

  /// Every file item's path, and whether it is a folder.
  func files() throws -> [String: Bool] {
    let queue = try queue()
    defer { try? queue.close() }
    return try queue.read { db in
      var files: [String: Bool] = [:]
      // Killed before its first migration committed, a new index file has no tables: empty.
      guard try db.tableExists("item") else { return files }
      for row in try Row.fetchAll(
        db,
        sql: """
          SELECT directory.path, item.name, item.flags FROM item
          JOIN directory ON directory.id = item.dir_id WHERE item.uid IS NULL
          """)
      {
        let folder: String = row[0]
        let name: String = row[1]
        let flags: Int = row[2]
        files[folder + "/" + name] = flags & 2 == 2
      }
      return files
    }
  }

  /// The last committed batch's client state, decoded (the crawl's JSON).
  func clientState() throws -> [String: Any]? {
    let queue = try queue()
    defer { try? queue.close() }
    let data = try queue.read { db in
      try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'client_state'")
    }
    guard let data else { return nil }
    return try JSONSerialization.jsonObject(with: data) as? [String: Any]
  }

  /// The bytes of the database file (and of its log, if any).
  func bytes() throws -> Data {
    var data = try Data(contentsOf: URL(fileURLWithPath: path))
    if let log = FileManager.default.contents(atPath: path + "-wal") { data.append(log) }
    return data
  }
}
