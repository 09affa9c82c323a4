import Testing

@testable import LumenModel

@Suite struct ContentTypeRegistryTests {
  static let declarations = """
    # a comment
    [public.data]
    ConformsTo=public.item
    [public.content]
    ConformsTo=public.item
    [public.image]
    ConformsTo=public.data;public.content
    [public.jpeg]
    ConformsTo=public.image
    MimeTypes=image/jpeg; image/pjpeg
    Extensions=jpg;JPEG
    """

  func registry() throws -> ContentTypeRegistry {
    let file = try KeyFile(source: "types.conf", text: Self.declarations)
    return ContentTypeRegistry(try ContentTypeDeclaration.parse(file))
  }

  @Test func treeListsNearestFirstAndEndsWithItem() throws {
    let tree = try registry().tree(of: "public.jpeg")
    #expect(
      tree == ["public.jpeg", "public.image", "public.data", "public.content", "public.item"])
  }

  @Test func undeclaredTypesStillAreDataAndItems() throws {
    #expect(
      try registry().tree(of: "com.example.unknown")
        == ["com.example.unknown", "public.data", "public.item"])
  }

  @Test func mimeAndExtensionLookupsIgnoreCaseAndParameters() throws {
    let registry = try registry()
    #expect(registry.type(forMIME: "IMAGE/JPEG; charset=binary") == "public.jpeg")
    #expect(registry.type(forExtension: "jpeg") == "public.jpeg")
    #expect(registry.type(forExtension: "png") == nil)
  }

  @Test func laterDeclarationsOverrideEarlierOnes() throws {
    let user = ContentTypeDeclaration(
      identifier: "com.example.photo", conformsTo: ["public.image"], extensions: ["jpg"])
    let registry = ContentTypeRegistry(
      try ContentTypeDeclaration.parse(KeyFile(source: "a", text: Self.declarations)) + [user])
    #expect(registry.type(forExtension: "jpg") == "com.example.photo")
  }

  @Test(arguments: [
    ("[public.x]\nConformsTo=public.item\nBogus=1", 3, "unknown key"),
    ("Key=value", 1, "outside of a group"),
    ("[public.x\n", 1, "malformed group header"),
    ("[public.x]\njust words", 2, "expected Key=Value"),
    ("[notAType]\n", 1, "not a type identifier"),
  ])
  func brokenDeclarationsNameTheLine(text: String, line: Int, message: String) {
    do {
      _ = try ContentTypeDeclaration.parse(KeyFile(source: "user.conf", text: text))
      Issue.record("expected an error")
    } catch {
      #expect(error.line == line)
      #expect(error.source == "user.conf")
      #expect(error.message.contains(message))
    }
  }
}
