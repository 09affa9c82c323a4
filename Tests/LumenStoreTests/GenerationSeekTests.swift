import Foundation
import GRDB
import LumenModel
import LumenQuery
import Testing

@testable import LumenStore

/// The attribute indexes are keyed by (generation of the row id, value) (migration v5): every
/// generation must be searched, from the first to the one of the newest item, and the
/// compiled query must let SQLite seek the index of the column it compares.
@Suite struct GenerationSeekTests {
  static let generationSize = 1 << StoreMigrations.generationShift

  /// Items numbered from 1, each with a size equal to its number and a date one day apart.
  static func items(_ count: Int) -> [SearchableItem] {
    (1...count).map { number in
      item(
        "item-\(number)",
        [
          (.fileSize, .number(Double(number))),
          (
            .contentModificationDate,
            .date(Date(timeIntervalSinceReferenceDate: Double(number) * 86_400))
          ),
        ])
    }
  }

  static func count(_ index: SearchableIndex, _ query: String) async throws -> Int {
    try await index.count(QueryParser(registry: index.registry).parse(query))
  }

  @Test func everyGenerationIsSearched() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    let total = 3 * Self.generationSize + 7
    try await index.indexSearchableItems(Self.items(total))
    let largest = try await index.pool.read { db in
      try Int64.fetchOne(db, sql: "SELECT max(id) FROM item") ?? 0
    }
    #expect(largest >> StoreMigrations.generationShift == 3, "the items span four generations")

    #expect(try await Self.count(index, "fileSize > 0") == total)
    #expect(try await Self.count(index, "fileSize > \(total - 7)") == 7, "the newest generation")
    #expect(try await Self.count(index, "fileSize <= 10") == 10, "the first generation")
    #expect(
      try await Self.count(index, "InRange(fileSize, 4000, 4200)") == 201,
      "across a generation boundary")
    #expect(try await Self.count(index, "fileSize == \(total)") == 1)
    #expect(try await Self.count(index, "!(fileSize > 100)") == 100)
    #expect(
      try await Self.count(index, "fileSize > 10 && fileSize <= 20 || fileSize > \(total - 3)")
        == 13)
    let lastDay = Date(timeIntervalSinceReferenceDate: Double(total) * 86_400)
    let iso = ISO8601DateFormatter().string(from: lastDay)
    #expect(try await Self.count(index, "contentModificationDate >= $time.iso('\(iso)')") == 1)
  }

  /// Row ids only grow, so a long-lived index goes round the generations: the ids of a second
  /// lap share generations with the first, and every query still seeks at most all of them.
  @Test func generationsGoRoundOnceRowIDsPassTheirCount() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await index.indexSearchableItems(Self.items(20))
    let lap = Int64(StoreMigrations.generationCount) << StoreMigrations.generationShift
    // A row far along, as years of new files leave them, then gone like those files.
    try await index.pool.write { db in
      try db.execute(
        sql: "INSERT INTO item(id, uid) VALUES (?, 'far')",
        arguments: [lap + 2 * Int64(Self.generationSize)])
    }
    let later = Self.items(40).suffix(20).map { item in
      var item = item
      item.uniqueIdentifier = "later-" + item.uniqueIdentifier
      return item
    }
    try await index.indexSearchableItems(Array(later))
    try await index.deleteSearchableItems(withIdentifiers: ["far"])

    let generations = try index.pool.read { db in
      try Row.fetchOne(
        db,
        sql: "WITH RECURSIVE \(QueryCompiler.generationTable) "
          + "SELECT count(*), max(generation) FROM item_generation")
    }
    #expect(generations?[0] == StoreMigrations.generationCount)
    #expect(generations?[1] == StoreMigrations.generationCount - 1)
    #expect(try await Self.count(index, "fileSize > 0") == 40)
    #expect(try await Self.count(index, "fileSize > 20") == 20, "the second lap")
    #expect(try await Self.count(index, "fileSize <= 20") == 20, "the first lap")
    #expect(try await Self.count(index, "InRange(fileSize, 15, 25)") == 11)
    let (_, plan) = try await index.explain(
      QueryParser(registry: index.registry).parse("fileSize > 20"))
    #expect(plan.contains { $0.contains("item_by_fileSize (<expr>=? AND fileSize>?)") }, "\(plan)")
  }

  @Test func comparisonsSeekTheirIndexOncePerChain() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await index.indexSearchableItems(Self.items(50))
    let parser = QueryParser(registry: index.registry)
    let term = "IN item_generation"

    let (rangeSQL, rangePlan) = try await index.explain(
      parser.parse("fileSize > 10 && fileSize < 20"))
    #expect(rangeSQL.components(separatedBy: term).count == 2, "one term for two comparisons")
    #expect(
      rangePlan.contains {
        $0.contains("item_by_fileSize (<expr>=? AND fileSize>? AND fileSize<?)")
      },
      "\(rangePlan)")

    let (eitherSQL, eitherPlan) = try await index.explain(
      parser.parse("fileSize > 40 || contentModificationDate < $time.iso('2001-01-05T00:00:00Z')"))
    #expect(eitherSQL.components(separatedBy: term).count == 3, "a term in each branch")
    #expect(eitherPlan.contains { $0.contains("item_by_fileSize (<expr>=?") }, "\(eitherPlan)")
    #expect(
      eitherPlan.contains { $0.contains("item_by_contentModificationDate (<expr>=?") },
      "\(eitherPlan)")

    let (negatedSQL, _) = try await index.explain(parser.parse("!(fileSize > 10)"))
    #expect(!negatedSQL.contains(term), "no index seek under a negation")
    #expect(!negatedSQL.hasPrefix("WITH"))

    let (plainSQL, _) = try await index.explain(parser.parse("fileSize != 10"))
    #expect(!plainSQL.contains(term), "!= is not a seek")
  }
}
