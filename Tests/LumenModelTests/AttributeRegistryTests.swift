import Testing

@testable import LumenModel

@Suite struct AttributeRegistryTests {
  @Test func everyNameResolvesToOneRow() {
    var seen: [String: String] = [:]
    for key in AttributeKey.builtIns {
      for name in key.allNames {
        #expect(seen[name] == nil, "\(name) names both \(seen[name] ?? "") and \(key.name)")
        seen[name] = key.name
        #expect(AttributeRegistry.builtIn.key(named: name) == key)
      }
    }
  }

  @Test(arguments: [
    ("kMDItemNumberOfPages", "pageCount"), ("kMDItemFNumber", "fNumber"),
    ("kMDItemDurationSeconds", "duration"), ("kMDItemFSName", "fileName"),
    ("kMDItemContentTypeTree", "contentTypeTree"), ("authorNames", "authors"),
    ("kMDItemAuthors", "authors"), ("title", "title"),
  ])
  func appleNamesResolve(alias: String, name: String) {
    #expect(AttributeRegistry.builtIn.key(named: alias)?.name == name)
  }

  @Test func multiValuedAndDefaultSearchableRowsAreAsDeclared() {
    #expect(AttributeKey.authors.isMultiValued)
    #expect(AttributeKey.contentTypeTree.isMultiValued)
    #expect(!AttributeKey.pageCount.isMultiValued)
    let defaults = Set(AttributeRegistry.builtIn.searchableByDefault.map(\.name))
    #expect(defaults.contains("title") && defaults.contains("textContent"))
    #expect(!defaults.contains("path") && !defaults.contains("pageCount"))
  }

  @Test(arguments: [
    ("com_example_mykey", true), ("schema.Event.location.address.addressLocality", true),
    ("kMDItemFoo", false), ("has space", false), ("", false), ("trailing.", false),
    (".leading", false), ("double..dot", false), ("title", false), ("naïve", false),
  ])
  func customKeyNamesFollowCoreSpotlightRules(name: String, valid: Bool) {
    let result = Result { try AttributeKey.custom(name) }
    let accepted = (try? result.get()) != nil
    #expect(accepted == valid)
  }

  @Test func redeclaringACustomKeyWithAnotherTypeIsRefused() throws {
    let first = try AttributeKey.custom("com_example_rank", valueType: .number)
    let registry = try AttributeRegistry.builtIn.adding([first])
    #expect(registry.key(named: "com_example_rank")?.valueType == .number)
    let clash = try AttributeKey.custom("com_example_rank", valueType: .text)
    #expect(throws: AttributeKeyError.conflictingDeclaration("com_example_rank")) {
      try registry.adding([clash])
    }
  }
}
