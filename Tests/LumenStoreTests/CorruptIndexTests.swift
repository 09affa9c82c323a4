import Foundation
import GRDB
import LumenModel
import LumenTestSupport
import Testing

@testable import LumenStore

/// Damaged and foreign database files are recognised when opened: a reader reports them, a
/// writer moves them aside with a timestamp and starts a new index in their place.
@Suite struct CorruptIndexTests {
  /// A written and cleanly closed index: its whole content is in the main file.
  private func writtenIndex(_ folder: TemporaryFolder, items: Int = 300) async throws -> String {
    do {
      let index = try makeIndex(folder)
      try await index.indexSearchableItems(
        (0..<items).map {
          item("item-\($0)", [(.title, .text("Title \($0) " + String(repeating: "x", count: 200)))])
        })
    }
    let path = folder.location().path
    let queue = try DatabaseQueue(path: path)
    try await queue.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
    }
    try queue.close()
    return path
  }

  enum Damage: String, CaseIterable, Sendable {
    case randomBytes, shortFile, cutMidPage, cutAtPageBoundary, badPageSize, foreignTables
    case foreignApplicationID
  }

  private func damage(_ path: String, _ damage: Damage) throws {
    let url = URL(fileURLWithPath: path)
    var bytes = try Array(Data(contentsOf: url))
    switch damage {
    case .randomBytes:
      var generator = SeededRandom(seed: 7)
      bytes = (0..<40_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
    case .shortFile:
      bytes = Array(bytes.prefix(60))
    case .cutMidPage:
      bytes = Array(bytes.prefix(bytes.count / 2 + 100))
    case .cutAtPageBoundary:
      bytes = Array(bytes.prefix(4096 * 3))
    case .badPageSize:
      bytes[16] = 0x03
      bytes[17] = 0x00
    case .foreignTables:
      try FileManager.default.removeItem(at: url)
      let queue = try DatabaseQueue(path: path)
      try queue.write { db in
        try db.execute(sql: "CREATE TABLE moz_places(id INTEGER PRIMARY KEY, url TEXT)")
        try db.execute(sql: "INSERT INTO moz_places(url) VALUES ('https://example.org')")
      }
      try queue.close()
      return
    case .foreignApplicationID:
      // Lumen's own tables, but another program's id in the header.
      bytes[68..<72] = [0x12, 0x34, 0x56, 0x78]
    }
    try Data(bytes).write(to: url)
  }

  @Test(arguments: Damage.allCases)
  func aReaderReportsTheDamageAndChangesNothing(damage: Damage) async throws {
    let folder = try TemporaryFolder()
    let path = try await writtenIndex(folder)
    try self.damage(path, damage)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect {
      try SearchableIndex(location: folder.location(), options: .init(readOnly: true))
    } throws: { error in
      guard case .corrupt(let reported, let reason) = error as? SearchableIndexError else {
        return false
      }
      return reported == path && !reason.isEmpty
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(!names.contains { $0.contains(".corrupt-") })
  }

  @Test(arguments: Damage.allCases)
  func aWriterMovesTheFileAsideAndStartsAfresh(damage: Damage) async throws {
    let folder = try TemporaryFolder()
    let path = try await writtenIndex(folder)
    try self.damage(path, damage)
    let damaged = try Data(contentsOf: URL(fileURLWithPath: path))
    let when = Date(timeIntervalSince1970: 1_750_000_000)
    let (index, moved) = try SearchableIndex.openRecoveringCorruption(
      location: folder.location(), now: when)
    let aside = try #require(moved)
    var seconds = time_t(1_750_000_000)
    var parts = tm()
    localtime_r(&seconds, &parts)
    let stamp = String(
      format: "%04d%02d%02dT%02d%02d%02d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
      parts.tm_hour, parts.tm_min, parts.tm_sec)
    #expect(aside.path == path + ".corrupt-" + stamp)
    #expect(!aside.reason.isEmpty)
    // The damaged bytes are kept as they were, for inspection.
    #expect(try Data(contentsOf: URL(fileURLWithPath: aside.path)) == damaged)
    // And the new index works.
    #expect(try await index.count(.constant(true)) == 0)
    try await index.indexSearchableItems([item("fresh")])
    #expect(try await index.count(.constant(true)) == 1)
    var info = stat()
    #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
  }

  @Test func aHealthyIndexWithAWriteAheadLogIsNotMistakenForACutOne() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await index.indexSearchableItems((0..<2000).map { item("i\($0)") })
    // The log holds pages the main file does not have yet: opening again must not object.
    let reader = try SearchableIndex(location: folder.location(), options: .init(readOnly: true))
    #expect(try await reader.count(.constant(true)) == 2000)
    let (again, moved) = try SearchableIndex.openRecoveringCorruption(location: folder.location())
    #expect(moved == nil)
    #expect(try await again.count(.constant(true)) == 2000)
  }

  @Test func movingAsideTakesTheLogAlongAndNeverOverwrites() throws {
    let folder = try TemporaryFolder()
    let location = folder.location()
    let when = Date(timeIntervalSince1970: 1_750_000_000)
    for round in 0..<2 {
      try Data("db \(round)".utf8).write(to: URL(fileURLWithPath: location.path))
      try Data("wal \(round)".utf8).write(to: URL(fileURLWithPath: location.path + "-wal"))
      let moved = try location.movedAside(at: when)
      #expect(round == 0 ? !moved.hasSuffix("-2") : moved.hasSuffix("-2"))
      #expect(try String(contentsOfFile: moved, encoding: .utf8) == "db \(round)")
      #expect(try String(contentsOfFile: moved + "-wal", encoding: .utf8) == "wal \(round)")
      #expect(!FileManager.default.fileExists(atPath: location.path + "-wal"))
    }
  }
}
