import Foundation
import GRDB
import LumenModel
import Testing

@testable import LumenStore

@Suite struct OpeningTests {
  @Test func migrationsRunOnAnEmptyFileAndAreIdempotent() async throws {
    let folder = try TemporaryFolder()
    #expect(FileManager.default.createFile(atPath: folder.location().path, contents: Data()))
    do {
      let index = try makeIndex(folder)
      try await index.indexSearchableItems([item("a", [(.title, .text("kept"))])])
    }
    let reopened = try makeIndex(folder)
    let applied = try await reopened.pool.read { db in
      try StoreMigrations.migrator.appliedMigrations(db)
    }
    #expect(
      applied == [
        "v1-items", "v2-drop-name-index", "v3-failed-extraction",
        "v4-covering-kind-and-lean-trigrams", "v5-generation-keyed-attribute-indexes",
      ])
    #expect(try await identifiers(reopened, "kept") == ["a"])
    let journal = try await reopened.pool.read { db in
      try String.fetchOne(db, sql: "PRAGMA journal_mode")
    }
    #expect(journal == "wal")
  }

  @Test func everySingleValuedBuiltInHasAColumnOrADedicatedHome() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    for key in AttributeKey.builtIns where !key.isMultiValued {
      let storage = index.layout.storage(for: key)
      #expect(storage != .values, "\(key.name) has no column: add one in a new migration")
      if case .column(let column) = storage {
        let type = StoreMigrations.v1AttributeColumns.first { $0.name == column }?.type
        let expected = key.valueType == .text ? "TEXT" : key.valueType == .bool ? "INTEGER" : "REAL"
        #expect(type == expected, "\(key.name)")
      }
    }
  }

  @Test func readOnlyNeverCreatesAFile() throws {
    let folder = try TemporaryFolder()
    let location = folder.location("missing.sqlite")
    #expect(throws: IndexLocationError.missingDatabase(path: location.path)) {
      try SearchableIndex(location: location, options: .init(readOnly: true))
    }
    #expect(!FileManager.default.fileExists(atPath: location.path))
    let nested = IndexLocation(path: folder.path + "/new/folder/x.sqlite")
    #expect(throws: (any Error).self) {
      try SearchableIndex(location: nested, options: .init(readOnly: true))
    }
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/new"))
  }

  @Test func readOnlyNeverWrites() async throws {
    let folder = try TemporaryFolder()
    let clock = TestClock()
    do {
      let index = try makeIndex(folder, clock: clock)
      try await index.indexSearchableItems([item("a", expiration: clock.now.addingTimeInterval(1))])
    }
    clock.advance(5)
    let path = folder.location().path
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let reader = try SearchableIndex(
      location: folder.location(), options: .init(readOnly: true, clock: clock.function))
    #expect(try await reader.count(.constant(true)) == 0)
    await #expect(throws: SearchableIndexError.readOnly(path: path)) {
      try await reader.indexSearchableItems([item("b")])
    }
    await #expect(throws: SearchableIndexError.readOnly(path: path)) {
      try await reader.sweepExpired()
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    #expect(try await reader.item(withIdentifier: "a") != nil)
  }

  @Test func aFileThatIsNotAnIndexIsAClearError() throws {
    let folder = try TemporaryFolder()
    let location = folder.location("other.sqlite")
    let queue = try DatabaseQueue(path: location.path)
    try queue.write { db in try db.execute(sql: "CREATE TABLE t(x)") }
    #expect {
      try SearchableIndex(location: location, options: .init(readOnly: true))
    } throws: { error in
      guard case .corrupt(_, let reason) = error as? SearchableIndexError else { return false }
      return reason.contains("another program (tables: t)")
    }
  }
}
