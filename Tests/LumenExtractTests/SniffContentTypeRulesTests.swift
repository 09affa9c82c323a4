import Foundation
import LumenModel
import Testing

@testable import LumenExtract

@Suite("Content types: rules/content-types.conf and its loader")
struct SniffContentTypeRulesTests {
  let declarations = try! ContentTypeRules.declarations(
    in: [RulesDirectory(path: SniffFixtures.rulesFolder, origin: .sourceTree)])

  @Test func everyMIMETypeAndExtensionIsDeclaredOnce() {
    var mimeOwners: [String: [String]] = [:]
    var extensionOwners: [String: [String]] = [:]
    for declaration in declarations {
      for mime in declaration.mimeTypes {
        mimeOwners[mime, default: []].append(declaration.identifier)
      }
      for ext in declaration.extensions {
        extensionOwners[ext, default: []].append(declaration.identifier)
      }
    }
    #expect(mimeOwners.filter { $0.value.count > 1 }.isEmpty)
    #expect(extensionOwners.filter { $0.value.count > 1 }.isEmpty)
    #expect(Set(declarations.map(\.identifier)).count == declarations.count)
  }

  @Test func everyParentIsDeclaredAndTheGraphEndsAtItem() {
    let known = Set(declarations.map(\.identifier))
    let registry = ContentTypeRegistry(declarations)
    for declaration in declarations {
      for parent in declaration.conformsTo {
        #expect(known.contains(parent), "\(declaration.identifier) conforms to unknown \(parent)")
      }
      #expect(registry.tree(of: declaration.identifier).last == "public.item")
      #expect(declaration.description?.isEmpty == false, "\(declaration.identifier) needs one")
    }
  }

  @Test(arguments: [
    (
      "public.jpeg",
      ["public.jpeg", "public.image", "public.data", "public.content", "public.item"]
    ),
    (
      "org.openxmlformats.wordprocessingml.document",
      [
        "org.openxmlformats.wordprocessingml.document", "org.openxmlformats.openxml",
        "public.composite-content", "public.zip-archive", "public.content",
        "com.pkware.zip-archive", "public.data", "public.archive", "public.item",
      ]
    ),
    (
      "public.python-script",
      [
        "public.python-script", "public.shell-script", "public.script", "public.source-code",
        "public.plain-text", "public.text", "public.data", "public.content", "public.item",
      ]
    ),
    ("public.folder", ["public.folder", "public.directory", "public.item"]),
    ("public.symlink", ["public.symlink", "public.item"]),
  ])
  func treesFollowApplesHierarchy(type: String, tree: [String]) {
    #expect(ContentTypeRegistry(declarations).tree(of: type) == tree)
  }

  @Test(arguments: [
    ("text/x-script.python", "public.python-script"), ("text/x-shellscript", "public.shell-script"),
    ("text/x-c", "public.c-source"), ("application/x-pie-executable", "public.unix-executable"),
    ("application/x-sharedlib", "org.freedesktop.shared-library"),
    ("application/x-executable", "public.unix-executable"), ("inode/directory", "public.folder"),
    ("inode/symlink", "public.symlink"), ("inode/x-empty", "public.data"),
    ("application/x-empty", "public.data"), ("audio/x-flac", "org.xiph.flac"),
    ("audio/flac", "org.xiph.flac"), ("application/ogg", "org.xiph.ogg"),
    ("audio/ogg", "org.xiph.ogg-audio"), ("audio/mpeg", "public.mp3"),
    ("image/heic", "public.heic"),
    ("application/epub+zip", "org.idpf.epub-container"),
    ("application/vnd.oasis.opendocument.text", "org.oasis-open.opendocument.text"),
    ("text/x-python", "public.python-script"), ("Image/JPEG", "public.jpeg"),
  ])
  func libmagicSpellingsMapToTypes(mime: String, type: String) {
    #expect(ContentTypeRegistry(declarations).type(forMIME: mime) == type)
  }

  @Test func eachDeclarationRemembersItsFileAndLine() throws {
    let jpeg = try #require(declarations.first { $0.identifier == "public.jpeg" })
    let path = SniffFixtures.rulesFolder + "/content-types.conf"
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    let number = try #require(lines.firstIndex { $0 == "[public.jpeg]" }) + 1
    #expect(jpeg.source == "\(path):\(number)")
  }

  @Test func userFilesComeLastAndOverride() throws {
    let scratch = SniffScratch()
    scratch.write(
      "config/lumen/rules/50-mine.conf",
      "[com.example.notebook]\nConformsTo=public.json\nExtensions=json\nDescription=Notebook\n")
    scratch.write("config/lumen/rules/ignored.txt", "not a conf file")
    let environment = [
      "LUMEN_RULES_DIR": SniffFixtures.rulesFolder, "XDG_CONFIG_HOME": scratch.root + "/config",
    ]
    let folders = RulesDirectory.searchPath(environment: environment, executablePath: nil)
    #expect(folders.map(\.origin) == [.environment, .user])
    let registry = try ContentTypeRules.registry(in: folders)
    #expect(registry.type(forExtension: "json") == "com.example.notebook")
    #expect(registry.conforms("com.example.notebook", to: "public.text"))
    #expect(
      registry.declarations["com.example.notebook"]?.source.hasSuffix("50-mine.conf:1") == true)
  }

  @Test func aBrokenUserFileIsReportedWithFileAndLine() throws {
    let scratch = SniffScratch()
    let path = scratch.write("rules/bad.conf", "[com.example.x]\nConformsTo=public.data\nOops\n")
    let folders = [
      RulesDirectory(path: SniffFixtures.rulesFolder, origin: .sourceTree),
      RulesDirectory(path: scratch.root + "/rules", origin: .user),
    ]
    #expect(throws: ContentTypeRulesError.self) { try ContentTypeRules.registry(in: folders) }
    do {
      _ = try ContentTypeRules.registry(in: folders)
    } catch {
      #expect(error.description == "\(path):3: expected Key=Value")
    }
  }

  @Test func missingShippedRulesSayWhereTheyWereLookedFor() {
    let folders = RulesDirectory.searchPath(
      environment: ["LUMEN_RULES_DIR": "/nonexistent/rules", "HOME": "/nonexistent"],
      executablePath: nil)
    do {
      _ = try ContentTypeRules.registry(in: folders)
      Issue.record("expected an error")
    } catch {
      #expect(error.description.hasPrefix("/nonexistent/rules/content-types.conf: cannot read"))
    }
    #expect(
      throws: ContentTypeRulesError.noShippedRules(searched: []),
      performing: { try ContentTypeRules.registry(in: []) })
  }

  @Test func theSourceTreeIsFoundFromABuildProduct() {
    let executable = SniffFixtures.packageRoot + "/.build/debug/lumen"
    let found = RulesDirectory.shipped(environment: [:], executablePath: executable)
    #expect(found == RulesDirectory(path: SniffFixtures.rulesFolder, origin: .sourceTree))
  }

  @Test func anInstalledPrefixWinsOverTheSourceTree() {
    let scratch = SniffScratch()
    scratch.write("usr/share/lumen/rules/content-types.conf", "")
    let found = RulesDirectory.shipped(
      environment: [:], executablePath: scratch.root + "/usr/bin/lumen")
    #expect(
      found == RulesDirectory(path: scratch.root + "/usr/share/lumen/rules", origin: .installed))
  }
}
