import Foundation
import Lumen
import Testing

/// A Swift program on Linux indexing its own items through the `Lumen` library product, the way
/// an app uses Core Spotlight: only `import Lumen`, async throwing calls, a named index file.
@Suite struct LibraryUsageTests {
  @Test func anAppIndexesQueriesAndRecoversItsBatchState() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("lumen-app-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let location = try IndexLocation.named(
      "notes", environment: ["XDG_DATA_HOME": folder.path, "HOME": folder.path])
    let index = try SearchableIndex(location: location)

    var attributes = AttributeSet()
    attributes.set(.text("Groceries for the picnic"), for: .title)
    attributes.set([.text("food"), .text("summer")], for: .keywords)
    attributes.set(
      .date(Date(timeIntervalSinceReferenceDate: 700_000_000)), for: .contentCreationDate)
    let rank = try AttributeKey.custom("com_example_notes_rank", valueType: .number)
    try await index.declareCustomKeys([rank])
    attributes.set(.number(5), for: rank)

    try index.beginBatch()
    try await index.indexSearchableItems([
      SearchableItem(
        uniqueIdentifier: "note-1", domainIdentifier: "notes.personal",
        attributeSet: attributes)
    ])
    try await index.endBatch(clientState: Data("synced-up-to:42".utf8))

    let query = try QueryParser(registry: index.registry).parse(
      "keywords == 'summer' && com_example_notes_rank > 3 && title == '*picnic*'c")
    let found = try await index.search(query, options: SearchOptions(fetchAttributes: [.title]))
    #expect(found.map(\.identifier) == ["note-1"])
    #expect(found.first?.attributes.text(.title) == "Groceries for the picnic")
    #expect(try await index.fetchLastClientState() == Data("synced-up-to:42".utf8))

    // Another process (here: another instance) sees the same index read-only.
    let reader = try SearchableIndex(location: location, options: .init(readOnly: true))
    #expect(try await reader.count(query, options: SearchOptions()) == 1)

    try await index.deleteSearchableItems(withDomainIdentifiers: ["notes"])
    #expect(try await reader.count(query, options: SearchOptions()) == 0)
  }
}
