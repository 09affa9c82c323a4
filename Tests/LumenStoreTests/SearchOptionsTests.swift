import Foundation
import LumenModel
import LumenQuery
import Testing

@testable import LumenStore

@Suite struct SearchOptionsTests {
  private func corpus(_ index: SearchableIndex) async throws {
    try await index.indexSearchableItems([
      fileItem("/home/u/Docs/b.txt", [(.fileSize, .number(30)), (.keywords, .text("k1"))]),
      fileItem("/home/u/Docs/sub/a.txt", [(.fileSize, .number(10)), (.title, .text("Alpha"))]),
      fileItem("/home/u/DocsOld/c.txt", [(.fileSize, .number(20))]),
      fileItem("/home/v/d.txt"),
      item("no-path", [(.fileSize, .number(5))]),
    ])
  }

  @Test func onlyInKeepsItemsBelowTheFolders() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await corpus(index)
    let options = SearchOptions(onlyIn: ["/home/u/Docs/"])
    #expect(
      try await index.search(.constant(true), options: options).map(\.identifier).sorted()
        == ["/home/u/Docs/b.txt", "/home/u/Docs/sub/a.txt"])
    #expect(try await index.count(.constant(true), options: SearchOptions(onlyIn: ["/"])) == 4)
    #expect(
      try await index.count(
        .constant(true), options: SearchOptions(onlyIn: ["/home/v", "/home/u/DocsOld"])) == 2)
  }

  @Test func sortingLimitAndFetchedAttributes() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await corpus(index)
    let options = SearchOptions(
      limit: 3, order: .attributes([.init(.fileSize, ascending: false)]),
      fetchAttributes: [.fileSize, .path, .keywords, .title])
    let results = try await index.search(.constant(true), options: options)
    #expect(
      results.map(\.identifier) == [
        "/home/u/Docs/b.txt", "/home/u/DocsOld/c.txt", "/home/u/Docs/sub/a.txt",
      ])
    #expect(results[0].attributes.number(.fileSize) == 30)
    #expect(results[0].attributes[.keywords] == [.text("k1")])
    #expect(results[0].attributes.text(.path) == "/home/u/Docs/b.txt")
    #expect(results[0].path == "/home/u/Docs/b.txt")
    #expect(results[2].attributes.text(.title) == "Alpha")
    #expect(results[1].attributes[.title] == nil)
    // Items without the sort attribute come last.
    let ascending = try await index.search(
      .constant(true), options: SearchOptions(order: .attributes([.init(.fileSize)])))
    #expect(ascending.map(\.identifier).last == "/home/v/d.txt")
    #expect(ascending.first?.identifier == "no-path")
    #expect(ascending.first?.path == nil)
  }

  @Test func enumerationStreamsAndStops() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    try await index.indexSearchableItems(
      (0..<1234).map { item("i\($0)", [(.keywords, .text("k\($0 % 3)"))]) })
    let seen = LockedValue<[String]>([])
    try await index.enumerateResults(
      try QueryParser(registry: index.registry).parse("keywords == 'k1'"),
      options: SearchOptions(fetchAttributes: [.keywords])
    ) { result in
      seen.update { $0.append(result.identifier) }
      #expect(result.attributes[.keywords] == [.text("k1")])
      return true
    }
    #expect(seen.value.count == 411)
    let stopped = LockedValue(0)
    try await index.enumerateResults(.constant(true)) { _ in
      stopped.update { $0 += 1 }
      return stopped.value < 10
    }
    #expect(stopped.value == 10)
  }
}
