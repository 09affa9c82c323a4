import Foundation
import Testing

@testable import LumenExtract

@Suite struct RuleSetTests {
  static func shipped() throws -> RuleSet {
    try RuleSet.load(shippedDirectory: TestPaths.rules, userDirectory: nil)
  }

  /// Writes rule files into a fresh directory.
  static func directory(_ files: [String: String]) throws -> URL {
    let url = try TestPaths.temporaryDirectory("rules")
    for (name, text) in files {
      try text.write(to: url.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    return url
  }

  @Test(arguments: [
    ("image/jpeg", "photo"), ("image/heic", "photo"), ("image/x-adobe-dng", "photo"),
    ("IMAGE/PNG", "photo"), ("audio/flac", "music"), ("audio/mpeg", "music"),
    ("audio/ogg; codecs=opus", "music"), ("application/ogg", "music"),
    ("application/pdf", "pdf"), ("text/plain", "text"), ("text/html", "html"),
    ("application/vnd.oasis.opendocument.text", "opendocument"),
    ("application/epub+zip", "epub"),
  ])
  func shippedRulesChooseTheExtractor(mime: String, extractor: String) throws {
    let chosen = try Self.shipped().rules(forMIME: mime)
    #expect(chosen.first?.extractor == extractor)
  }

  @Test(arguments: [
    "audio/x-mpegurl", "audio/midi", "text/calendar", "application/x-executable",
  ])
  func blockedAndUnknownTypesHaveNoRule(mime: String) throws {
    #expect(try Self.shipped().rules(forMIME: mime).isEmpty)
  }

  @Test func sourceNamesFileAndGroupLine() throws {
    let rule = try #require(try Self.shipped().rules(forMIME: "image/jpeg").first)
    #expect(rule.source.fileName == "10-photos.rule")
    #expect(rule.source.line == 4)
    #expect(rule.source.description.hasSuffix("rules/10-photos.rule:4"))
    #expect(rule.contentType == "public.image")
    #expect(rule.limits.maxBytes == 256 << 20)
    #expect(rule.limits.timeoutSeconds == 2)
    #expect(rule.limits.maxPages == nil)
    let pdf = try #require(try Self.shipped().rules(forMIME: "application/pdf").first)
    #expect(pdf.limits.maxPages == 20)
  }

  @Test func everyKeyIsRead() throws {
    let text = """
      # comment
      [Photos]
      Extractor=photo
      MimeTypes = image/* ; application/x-foo
      BlockMimeTypes=image/svg+xml
      ContentType=public.image
      Priority=-3
      MaxBytes=2KiB
      MaxTextBytes=3M
      MaxPages=7
      Timeout=0.5s

      [Music]
      Extractor=music
      MimeTypes=audio/*
      """
    let rules = try RuleSet.parse(text, path: "x/05-test.rule")
    #expect(rules.count == 2)
    let photo = rules[0]
    #expect(photo.mimeTypes.map(\.pattern) == ["image/*", "application/x-foo"])
    #expect(photo.matches("image/png"))
    #expect(!photo.matches("image/svg+xml"))
    #expect(photo.priority == -3)
    #expect(
      photo.limits
        == ExtractionLimits(maxBytes: 2048, maxTextBytes: 3 << 20, maxPages: 7, timeoutSeconds: 0.5)
    )
    #expect(photo.source == RuleSource(path: "x/05-test.rule", fileName: "05-test.rule", line: 2))
    #expect(rules[1].source.line == 13)
    #expect(rules[1].limits.maxPages == nil)
    #expect(rules[1].limits == ExtractionLimits())
  }

  @Test(arguments: [
    ("[R]\nExtractor=photo\nMimeTypes=image/*\nMaxByte=5\n", 4, "unknown key 'MaxByte'"),
    ("[R]\nExtractor=pdf-magic\nMimeTypes=image/*\n", 2, "unknown extractor 'pdf-magic'"),
    ("[R]\nExtractor=photo\n", 1, "has no MimeTypes"),
    ("[R]\nMimeTypes=image/*\n", 1, "has no Extractor"),
    ("[R]\nExtractor=photo\nMimeTypes=image/*\nMaxBytes=lots\n", 4, "MaxBytes must be"),
    ("[R]\nExtractor=photo\nMimeTypes=image/*\nMaxTextBytes=-1\n", 4, "MaxTextBytes must be"),
    ("[R]\nExtractor=photo\nMimeTypes=image/*\nTimeout=0\n", 4, "Timeout must be"),
    ("[R]\nExtractor=pdf\nMimeTypes=application/pdf\nMaxPages=0\n", 4, "MaxPages must be"),
    ("[R]\nExtractor=pdf\nMimeTypes=application/pdf\nMaxPages=2.5\n", 4, "MaxPages must be"),
    ("[R]\nExtractor=photo\nMimeTypes=image/*\nPriority=high\n", 4, "Priority must be"),
    ("[R]\nExtractor=photo\nMimeTypes=image/*\nContentType=jpeg\n", 4, "type identifier"),
    ("Extractor=photo\n", 1, "key outside of a group"),
    ("[R]\nExtractor photo\n", 2, "expected Key=Value"),
  ])
  func mistakesNameFileAndLine(text: String, line: Int, message: String) throws {
    do {
      _ = try RuleSet.parse(text, path: "rules/99-bad.rule")
      Issue.record("accepted: \(text)")
    } catch {
      #expect(error.path == "rules/99-bad.rule")
      #expect(error.line == line)
      #expect(error.message.contains(message), "\(error)")
      #expect(error.description.hasPrefix("rules/99-bad.rule:\(line): "))
    }
  }

  @Test func priorityThenFileNameOrder() throws {
    let shipped = try Self.directory([
      "10-a.rule": "[A]\nExtractor=photo\nMimeTypes=image/*\n",
      "20-b.rule": "[B]\nExtractor=music\nMimeTypes=image/jpeg\n",
      "30-c.rule": "[C]\nExtractor=photo\nMimeTypes=image/jpeg\nPriority=5\n",
    ])
    defer { try? FileManager.default.removeItem(at: shipped) }
    let rules = try RuleSet.load(shippedDirectory: shipped.path, userDirectory: nil)
    #expect(
      rules.files.map { ($0 as NSString).lastPathComponent } == [
        "10-a.rule", "20-b.rule", "30-c.rule",
      ])
    let order = rules.rules(forMIME: "image/jpeg").map(\.source.fileName)
    #expect(order == ["30-c.rule", "10-a.rule", "20-b.rule"])
    #expect(rules.rules(forMIME: "image/png").map(\.source.fileName) == ["10-a.rule"])
  }

  @Test func userFilesOverrideDisableAndAdd() throws {
    let shipped = try Self.directory([
      "10-photos.rule": "[P]\nExtractor=photo\nMimeTypes=image/*\n",
      "20-music.rule": "[M]\nExtractor=music\nMimeTypes=audio/*\n",
      "30-more.rule": "[X]\nExtractor=photo\nMimeTypes=image/png\n",
    ])
    let user = try Self.directory([
      // Same name: replaces the shipped file.
      "10-photos.rule": "[Mine]\nExtractor=photo\nMimeTypes=image/jpeg\nTimeout=1\n",
      // Same name, empty: switches the shipped music rule off.
      "20-music.rule": "# off\n",
      // New name: added at its place in the order.
      "25-extra.rule": "[E]\nExtractor=music\nMimeTypes=image/png\n",
      "notes.txt": "not a rule file",
    ])
    defer {
      try? FileManager.default.removeItem(at: shipped)
      try? FileManager.default.removeItem(at: user)
    }
    let rules = try RuleSet.load(shippedDirectory: shipped.path, userDirectory: user.path)
    #expect(rules.rules(forMIME: "image/jpeg").map(\.limits.timeoutSeconds) == [1])
    #expect(rules.rules(forMIME: "image/gif").isEmpty)
    #expect(rules.rules(forMIME: "audio/flac").isEmpty)
    #expect(
      rules.rules(forMIME: "image/png").map(\.source.fileName) == ["25-extra.rule", "30-more.rule"])
    #expect(rules.rules(forMIME: "image/jpeg").first?.source.path.hasPrefix(user.path) == true)
  }

  @Test func missingDirectoriesGiveNoRules() throws {
    let rules = try RuleSet.load(
      shippedDirectory: "/nonexistent/rules", userDirectory: "/nonexistent/user")
    #expect(rules.rules.isEmpty)
  }

  @Test func brokenUserFileStopsLoadingWithItsPath() throws {
    let user = try Self.directory(["50-typo.rule": "[T]\nExtractor=photo\nMimeTyeps=image/*\n"])
    defer { try? FileManager.default.removeItem(at: user) }
    #expect(throws: RuleError.self) {
      try RuleSet.load(shippedDirectory: TestPaths.rules, userDirectory: user.path)
    }
    do {
      _ = try RuleSet.load(shippedDirectory: TestPaths.rules, userDirectory: user.path)
    } catch {
      #expect(error.path.hasSuffix("50-typo.rule"))
      #expect(error.line == 3)
    }
  }

  @Test func nonUTF8FileIsRefused() throws {
    let user = try TestPaths.temporaryDirectory("rules")
    defer { try? FileManager.default.removeItem(at: user) }
    try Data([0x5B, 0x52, 0x5D, 0x0A, 0xFF, 0xFE]).write(to: user.appendingPathComponent("1.rule"))
    #expect(throws: RuleError(path: user.path + "/1.rule", line: 0, message: "is not UTF-8 text")) {
      try RuleSet.load(shippedDirectory: nil, userDirectory: user.path)
    }
  }

  @Test func userDirectoryFollowsXDG() {
    #expect(
      RuleSet.userDirectory(environment: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/home/u"])
        == "/cfg/lumen/rules")
    // A relative XDG_CONFIG_HOME is invalid per the specification and ignored.
    #expect(
      RuleSet.userDirectory(environment: ["XDG_CONFIG_HOME": "cfg", "HOME": "/home/u"])
        == "/home/u/.config/lumen/rules")
    #expect(RuleSet.userDirectory(environment: [:]) == nil)
  }

  @Test func globsFollowFnmatch() {
    #expect(
      MIMEPattern("application/vnd.oasis.opendocument.*").matches(
        "application/vnd.oasis.opendocument.text"))
    #expect(MIMEPattern("audio/x-?av").matches("audio/x-wav"))
    #expect(MIMEPattern("image/[jp]*").matches("image/png"))
    #expect(!MIMEPattern("image/[jp]*").matches("image/gif"))
    #expect(MIMEPattern("text/plain").matches("Text/Plain; charset=UTF-8"))
    #expect(!MIMEPattern("image/*").matches("video/mp4"))
  }
}
