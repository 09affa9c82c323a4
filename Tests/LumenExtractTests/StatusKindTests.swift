import LumenModel
import Testing

@testable import LumenExtract
@testable import LumenStore

/// `lumen status` counts items by kind. The kinds come from the shipped type tree, so the test
/// reads rules/content-types.conf rather than trees written here.
@Suite("Status: the kind each shipped content type is counted under")
struct StatusKindTests {
  static let registry = try! ContentTypeRules.registry(
    in: [RulesDirectory(path: SniffFixtures.rulesFolder, origin: .sourceTree)])

  @Test(arguments: [
    ("public.jpeg", "public.image"),
    ("public.mp3", "public.audio"),
    ("public.mpeg-4-audio", "public.audio"),
    ("public.mpeg-4", "public.movie"),
    ("com.adobe.pdf", "com.adobe.pdf"),
    ("org.openxmlformats.presentationml.presentation", "public.presentation"),
    ("org.openxmlformats.spreadsheetml.sheet", "public.spreadsheet"),
    ("org.openxmlformats.wordprocessingml.document", "public.composite-content"),
    ("org.oasis-open.opendocument.text", "public.composite-content"),
    ("org.idpf.epub-container", "org.idpf.epub-container"),
    ("public.swift-source", "public.source-code"),
    ("public.python-script", "public.source-code"),
    ("public.plain-text", "public.text"),
    ("public.zip-archive", "public.archive"),
    ("public.folder", "public.directory"),
  ])
  func kind(of type: String, is expected: String) {
    #expect(Self.registry.declarations[type] != nil, "\(type) is declared")
    let kind = SearchableIndex.topLevelType(
      identifier: type, tree: Self.registry.tree(of: type))
    #expect(kind == expected, "\(type): tree \(Self.registry.tree(of: type))")
  }

  @Test func anUndeclaredTypeIsItsOwnKind() {
    #expect(
      SearchableIndex.topLevelType(identifier: "com.example.thing", tree: nil)
        == "com.example.thing")
  }
}
