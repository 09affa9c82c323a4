import Foundation
import LumenModel
import Testing

@testable import LumenStore

@Suite struct ExpirationTests {
  let day: TimeInterval = 86_400

  @Test func anExpiredItemIsNeverReturnedEvenBeforeTheSweep() async throws {
    let folder = try TemporaryFolder()
    let clock = TestClock()
    let index = try makeIndex(folder, clock: clock)
    try await index.indexSearchableItems([
      item("soon", expiration: clock.now.addingTimeInterval(60), [(.title, .text("soon"))]),
      item("later", [(.title, .text("later"))]),
    ])
    #expect(try await identifiers(index, "true") == ["later", "soon"])
    clock.advance(60)  // expiration ≤ now: gone
    #expect(try await identifiers(index, "true") == ["later"])
    #expect(try await index.count(.constant(true)) == 1)
    #expect(try await identifiers(index, "soon") == [])
    // Still stored until swept.
    #expect(try await index.item(withIdentifier: "soon") != nil)
    #expect(try await index.statistics().expiredItemCount == 1)
    #expect(try await index.sweepExpired() == 1)
    #expect(try await index.item(withIdentifier: "soon") == nil)
    #expect(try await index.sweepExpired() == 0)
  }

  @Test func theDefaultIsAMonthAndReindexingExtendsIt() async throws {
    let folder = try TemporaryFolder()
    let clock = TestClock()
    let index = try makeIndex(folder, clock: clock)
    try await index.indexSearchableItems([item("a"), item("b")])
    clock.advance(20 * day)
    try await index.indexSearchableItems([item("a")])  // re-indexed: a month from now
    clock.advance(15 * day)  // b is 35 days old, a 15
    #expect(try await identifiers(index, "true") == ["a"])
    #expect(try await index.sweepExpired() == 1)
    let stored = try #require(try await index.item(withIdentifier: "a"))
    #expect(stored.expirationDate == clock.now.addingTimeInterval(-15 * day + 30 * day))
  }

  @Test func theSweepRunsWhenAWritableIndexOpens() async throws {
    let folder = try TemporaryFolder()
    let clock = TestClock()
    do {
      let index = try makeIndex(folder, clock: clock)
      try await index.indexSearchableItems([
        item("old", expiration: clock.now.addingTimeInterval(10)), item("new"),
      ])
    }
    clock.advance(11)
    let reader = try SearchableIndex(
      location: folder.location(), options: .init(readOnly: true, clock: clock.function))
    #expect(try await reader.statistics().itemCount == 2)  // read-only never sweeps
    let reopened = try makeIndex(folder, clock: clock)
    #expect(try await reopened.statistics().itemCount == 1)
  }

  @Test func domainRenewalCarriesItsItems() async throws {
    let folder = try TemporaryFolder()
    let clock = TestClock()
    let index = try makeIndex(folder, clock: clock)
    try await index.renewDomain("files.home", until: clock.now.addingTimeInterval(2 * day))
    try await index.indexSearchableItems([
      item("f1", domain: "files.home"), item("f2", domain: "files.home"),
      item("own", domain: "files.home", expiration: clock.now.addingTimeInterval(10 * day)),
      item("other", domain: "mail"),
    ])
    #expect(
      try await index.item(withIdentifier: "f1")?.expirationDate
        == clock.now.addingTimeInterval(2 * day))
    clock.advance(1 * day)
    try await index.renewDomain("files.home", until: clock.now.addingTimeInterval(2 * day))
    clock.advance(1.5 * day)  // past the first renewal, within the second
    #expect(try await identifiers(index, "true") == ["f1", "f2", "other", "own"])
    clock.advance(1 * day)  // the domain's date passed: its inheriting items go
    #expect(try await identifiers(index, "true") == ["other", "own"])
    #expect(try await index.sweepExpired() == 2)
    #expect(try await index.statistics().domainExpirations["files.home"] != nil)
  }
}
