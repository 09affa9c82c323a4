import Foundation
import GRDB
import LumenModel
import Testing

@testable import LumenStore

@Suite struct ItemWriteTests {
  @Test func reindexingReplacesTheWholeItem() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await index.indexSearchableItems([
      item(
        "m1", domain: "mail",
        [
          (.title, .text("old")), (.keywords, .text("a")), (.keywords, .text("b")),
          (.pageCount, .number(3)),
        ])
    ])
    try await index.indexSearchableItems([item("m1", [(.title, .text("new"))])])
    let stored = try #require(try await index.item(withIdentifier: "m1"))
    #expect(stored.attributes.text(.title) == "new")
    #expect(stored.attributes[.keywords] == nil)
    #expect(stored.attributes[.pageCount] == nil)
    #expect(stored.domainIdentifier == nil)
    #expect(try await identifiers(index, "keywords == 'a'") == [])
    #expect(try await identifiers(index, "title == 'old'") == [])
    #expect(try await identifiers(index, "title == 'new'") == ["m1"])
  }

  @Test func anUpdateMergesAndANilRemoves() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await index.indexSearchableItems([
      item(
        "m1", domain: "mail.inbox",
        [
          (.title, .text("Lunch")), (.authors, .text("Ann")), (.pageCount, .number(2)),
          (.comment, .text("bring cake")),
        ])
    ])
    var changes = AttributeSet()
    changes.set(.text("Dinner"), for: .title)
    changes.set([.text("Bob"), .text("Cy")], for: .authors)
    changes.set(nil as AttributeValue?, for: .comment)
    try await index.indexSearchableItems([
      SearchableItem(uniqueIdentifier: "m1", attributeSet: changes, isUpdate: true)
    ])
    let stored = try #require(try await index.item(withIdentifier: "m1"))
    #expect(stored.attributes.text(.title) == "Dinner")
    #expect(stored.attributes[.authors] == [.text("Bob"), .text("Cy")])
    #expect(stored.attributes.number(.pageCount) == 2)
    #expect(stored.attributes[.comment] == nil)
    #expect(stored.domainIdentifier == "mail.inbox")
    // The indexes follow: old values are gone from queries and full text.
    #expect(try await identifiers(index, "authors == 'Ann'") == [])
    #expect(try await identifiers(index, "authors == 'Cy'") == ["m1"])
    #expect(try await identifiers(index, "cake") == [])
    #expect(try await identifiers(index, "dinner") == ["m1"])
    #expect(try await identifiers(index, "lunch") == [])
  }

  @Test func anUpdateForAMissingItemIsDropped() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await index.indexSearchableItems([
      item("ghost", update: true, [(.title, .text("boo"))]),
      item("real", [(.title, .text("here"))]),
    ])
    #expect(try await index.item(withIdentifier: "ghost") == nil)
    #expect(try await identifiers(index, "true") == ["real"])
  }

  @Test func theSameIdentifierTwiceInOneChunkKeepsTheLast() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await index.indexSearchableItems([
      item("x", [(.title, .text("first")), (.keywords, .text("k1"))]),
      item("x", update: true, [(.comment, .text("merged"))]),
      item("y", [(.title, .text("other"))]),
    ])
    let stored = try #require(try await index.item(withIdentifier: "x"))
    #expect(stored.attributes.text(.title) == "first")
    #expect(stored.attributes.text(.comment) == "merged")
    #expect(try await identifiers(index, "first") == ["x"])
    #expect(try await identifiers(index, "merged") == ["x"])
    #expect(try await index.count(.constant(true)) == 2)
  }

  @Test func hierarchicalDomainDelete() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await index.indexSearchableItems([
      item("1", domain: "mail"), item("2", domain: "mail.inbox"),
      item("3", domain: "mail.inbox.archive"), item("4", domain: "mailbox"),
      item("5", domain: "mail-list"), item("6"),
    ])
    try await index.deleteSearchableItems(withDomainIdentifiers: ["mail"])
    #expect(try await identifiers(index, "true") == ["4", "5", "6"])
  }

  @Test func deleteByIdentifierAndDeleteAll() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await index.indexSearchableItems([
      item("a", [(.title, .text("alpha"))]), item("b", [(.title, .text("beta"))]),
      fileItem("/home/u/c.txt"),
    ])
    try await index.deleteSearchableItems(withIdentifiers: ["a", "/home/u/c.txt", "nope"])
    #expect(try await identifiers(index, "true") == ["b"])
    #expect(try await identifiers(index, "alpha") == [])
    try await index.deleteAllSearchableItems()
    #expect(try await index.count(.constant(true)) == 0)
    #expect(try await identifiers(index, "beta") == [])
    try await index.indexSearchableItems([item("z", [(.title, .text("beta"))])])
    #expect(try await identifiers(index, "beta") == ["z"])
  }

  @Test func fileItemsStoreNeitherIdentifierNorPathTwice() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await index.indexSearchableItems([
      fileItem("/home/u/Documents/report.pdf", [(.fileSize, .number(1234))]),
      item("app-1", [(.path, .text("/home/u/Documents/report.pdf"))]),
      item("app-2", [(.path, .text("relative/x")), (.fileName, .text("other name"))]),
    ])
    let rows = try await index.pool.read { db in
      try Row.fetchAll(db, sql: "SELECT uid, name, file_name, flags FROM item ORDER BY id")
    }
    #expect(rows[0]["uid"] as String? == nil)
    #expect(rows[0]["file_name"] as String? == nil)
    #expect((rows[0]["flags"] as Int64) & 1 == 1)  // fileName is the path's last component
    #expect(rows[1]["uid"] as String? == "app-1")
    #expect(rows[2]["file_name"] as String? == "other name")
    let file = try #require(try await index.item(withIdentifier: "/home/u/Documents/report.pdf"))
    #expect(file.path == "/home/u/Documents/report.pdf")
    #expect(file.attributes.text(.fileName) == "report.pdf")
    let app = try #require(try await index.item(withIdentifier: "app-2"))
    #expect(app.path == "relative/x")
    #expect(app.attributes.text(.fileName) == "other name")
    #expect(
      try await identifiers(index, "path == '/home/u/Documents/report.pdf'")
        == ["/home/u/Documents/report.pdf", "app-1"])
  }

  @Test func valuesRoundTripExactly() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    let date = Date(timeIntervalSinceReferenceDate: 712_345_678.123_456)
    let custom = try AttributeKey.custom("rank_score", valueType: .number, multiValued: true)
    let nfd = "Cafe\u{301}"
    var attributes = AttributeSet()
    attributes.set(.text(nfd), for: .title)
    attributes.set(.date(date), for: .contentCreationDate)
    attributes.set(.bool(true), for: .flashOn)
    attributes.set(.number(-0.5), for: .altitude)
    attributes.set([.number(1.5), .number(-2)], for: custom)
    attributes.set([.text("public.jpeg"), .text("public.image")], for: .contentTypeTree)
    attributes.set(.text("public.jpeg"), for: .contentType)
    attributes.set(.text("body text"), for: .textContent)
    try await index.indexSearchableItems([
      SearchableItem(uniqueIdentifier: "r", attributeSet: attributes)
    ])
    let stored = try #require(try await index.item(withIdentifier: "r"))
    #expect(stored.attributes.text(.title)?.utf8.elementsEqual(nfd.utf8) == true)
    #expect(stored.attributes.first(.contentCreationDate) == .date(date))
    #expect(stored.attributes.first(.flashOn) == .bool(true))
    #expect(stored.attributes.number(.altitude) == -0.5)
    #expect(stored.attributes[custom] == [.number(1.5), .number(-2)])
    #expect(stored.attributes[.contentTypeTree] == [.text("public.jpeg"), .text("public.image")])
    #expect(stored.attributes.text(.textContent) == "body text")
    #expect(index.registry.key(named: "rank_score")?.isMultiValued == true)
  }

  @Test func sqlInjectionShapedValuesAreInert() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    let hostile = "'); DROP TABLE item;--"
    try await index.indexSearchableItems([
      item(hostile, domain: hostile, [(.title, .text(hostile)), (.keywords, .text(hostile))]),
      fileItem("/tmp/\(hostile)\"; DELETE FROM value; --"),
    ])
    #expect(try await identifiers(index, "title == \"\(hostile)\"") == [hostile])
    #expect(try await identifiers(index, "keywords == \"*DROP TABLE*\"c") == [hostile])
    #expect(try await identifiers(index, "* == \"*drop table*\"cd").contains(hostile))
    #expect(
      try await identifiers(index, "fileName == \"*DELETE FROM value*\"")
        == ["/tmp/\(hostile)\"; DELETE FROM value; --"])
    try await index.deleteSearchableItems(withDomainIdentifiers: [hostile])
    #expect(try await index.count(.constant(true)) == 1)
    let tables = try await index.pool.read { db in
      try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
    }
    #expect(tables.contains("item") && tables.contains("value"))
  }

  @Test func customKeysArePersistedAndConflictsRefused() async throws {
    let folder = try TemporaryFolder()
    do {
      let index = try makeIndex(folder)
      try await index.declareCustomKeys([
        try .custom("projectCode", searchableByDefault: true),
        try .custom("priority", valueType: .number),
      ])
      try await index.indexSearchableItems([
        item("p", [(try .custom("projectCode", searchableByDefault: true), .text("ZX-81"))])
      ])
      await #expect(throws: SearchableIndexError.attributeKey(.conflictingDeclaration("priority")))
      {
        try await index.declareCustomKeys([try .custom("priority", valueType: .date)])
      }
    }
    let reopened = try makeIndex(folder)
    #expect(reopened.registry.key(named: "projectCode")?.isSearchableByDefault == true)
    #expect(reopened.registry.key(named: "priority")?.valueType == .number)
    #expect(try await identifiers(reopened, "zx") == ["p"])
    #expect(try await identifiers(reopened, "projectCode == 'zx-*'c") == ["p"])
  }
}
