import Foundation
import Testing

@testable import LumenCrawl

/// The scope's gitignore rules against git itself: each case is a real repository in a
/// temporary folder; `git ls-files --others --exclude-standard` says which files a walk must
/// keep, and `git check-ignore -v` which file and line decide each single path.
struct IgnoreCase: Sendable, CustomTestStringConvertible {
  let name: String
  /// Ignore files by relative path (`.gitignore`, `a/.gitignore`, `.git/info/exclude`).
  let rules: [String: String]
  let files: [String]

  var testDescription: String { name }

  static let all: [IgnoreCase] = [
    IgnoreCase(
      name: "basename globs match at any depth",
      rules: [".gitignore": "*.o\n*.tmp\nfoo\n"],
      files: ["a.o", "x/b.o", "x/y/c.o", "foo", "x/foo", "x/foo.c", "keep.c", "x/y/z.tmp"]),
    IgnoreCase(
      name: "negation re-includes",
      rules: [".gitignore": "*.log\n!important.log\n"],
      files: ["a.log", "important.log", "d/important.log", "d/b.log", "d/c.txt"]),
    IgnoreCase(
      name: "negation cannot re-include inside an ignored folder",
      rules: [".gitignore": "build/\n!build/keep.txt\n"],
      files: ["build/keep.txt", "build/out.bin", "src/build.c"]),
    IgnoreCase(
      name: "anchored patterns",
      rules: [".gitignore": "/top.txt\n/docs/*.pdf\nsub/file.txt\n"],
      files: [
        "top.txt", "d/top.txt", "docs/a.pdf", "docs/x/b.pdf", "d/docs/c.pdf", "sub/file.txt",
        "x/sub/file.txt",
      ]),
    IgnoreCase(
      name: "directory-only patterns",
      rules: [".gitignore": "cache/\nout\n"],
      files: ["cache/a", "d/cache/b", "cachefile", "out/x", "d/out", "outer/y"]),
    IgnoreCase(
      name: "double star",
      rules: [".gitignore": "**/logs\n**/deep/*.txt\na/**/z\nvendor/**\nx**y\n"],
      files: [
        "logs/1", "d/logs/2", "deep/a.txt", "q/deep/b.txt", "q/deep/c.md", "a/z", "a/b/z",
        "a/b/c/z", "b/a/z", "vendor/lib/x.c", "vendor.c", "xay", "xy", "d/xaay",
      ]),
    IgnoreCase(
      name: "wildcards and classes",
      rules: [".gitignore": "file?.txt\n[abc].dat\n[!x]y.bin\n*.[oa]\nnum[0-9][0-9]\n"],
      files: [
        "file1.txt", "file12.txt", "a.dat", "d.dat", "zy.bin", "xy.bin", "m.o", "m.a", "m.so",
        "num42", "num4",
      ]),
    IgnoreCase(
      name: "comments, escapes and trailing spaces",
      rules: [".gitignore": "# comment\n\\#hash\n\\!bang\nspace\\ \ntrail   \n  lead\n\n"],
      files: ["#hash", "!bang", "space ", "trail", "trail   ", "  lead", "lead", "comment"]),
    IgnoreCase(
      name: "CRLF line ends",
      rules: [".gitignore": "*.bak\r\nnotes.txt\r\n"],
      files: ["a.bak", "notes.txt", "other.txt"]),
    IgnoreCase(
      name: "nested gitignore files stack, deeper wins",
      rules: [
        ".gitignore": "*.gen\n!keep/\n",
        "lib/.gitignore": "!*.gen\nlocal.txt\n",
        "lib/sub/.gitignore": "*.gen\n",
      ],
      files: [
        "a.gen", "lib/b.gen", "lib/local.txt", "local.txt", "lib/sub/c.gen", "lib/sub/local.txt",
      ]),
    IgnoreCase(
      name: "nested anchored patterns are relative to their folder",
      rules: ["web/.gitignore": "/dist\nnode_modules/\n"],
      files: ["web/dist/app.js", "dist/x", "web/src/dist/y", "web/node_modules/p/i.js"]),
    IgnoreCase(
      name: "info/exclude is the lowest level",
      rules: [".git/info/exclude": "*.secret\nlocal/\n", ".gitignore": "!keep.secret\n"],
      files: ["a.secret", "keep.secret", "local/x", "d/b.secret"]),
    IgnoreCase(
      name: "everything but",
      rules: [".gitignore": "/*\n!/src/\n!/README\n"],
      files: ["README", "LICENSE", "src/main.c", "build/x.o", "notes/a.txt"]),
    IgnoreCase(
      name: "dotfiles and symlink-like names",
      rules: [".gitignore": ".env\n.*.swp\n"],
      files: [".env", ".a.swp", "b.swp", ".config/x", "d/.env"]),
  ]
}

@Suite("gitignore semantics against git")
struct GitIgnoreOracleTests {
  @Test(arguments: IgnoreCase.all)
  func walkKeepsWhatGitListsAsUntracked(_ example: IgnoreCase) async throws {
    let tree = try Self.repository(example)
    let scope = try Scope(options: .init(roots: [tree.root], includeHidden: true))
    let record = await WalkRecord.walk(scope)
    let walked = Set(
      record.entries.filter { $0.status.kind != .directory }
        .map { String($0.path.dropFirst(tree.root.count + 1)) })
    let listed = try tree.git(["ls-files", "-z", "--others", "--exclude-standard"])
    let expected = Set(listed.split(separator: "\0").map(String.init))
    #expect(walked == expected)
    #expect(record.failures.isEmpty)
  }

  @Test(arguments: IgnoreCase.all)
  func singlePathsAgreeWithCheckIgnore(_ example: IgnoreCase) throws {
    let tree = try Self.repository(example)
    let scope = try Scope(options: .init(roots: [tree.root], includeHidden: true))
    var paths: Set<String> = []
    for file in example.files {
      var parts = file.split(separator: "/").map(String.init)
      while !parts.isEmpty {
        paths.insert(parts.joined(separator: "/"))
        parts.removeLast()
      }
    }
    let ordered = paths.sorted()
    let output = try tree.git(
      ["check-ignore", "-v", "-n", "-z", "--stdin"],
      input: ordered.joined(separator: "\0") + "\0")
    // -z -v -n: source NUL line NUL pattern NUL path NUL, per path.
    let fields = output.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
    var answers: [String: (source: String, line: Int, pattern: String)?] = [:]
    var index = 0
    while index + 3 < fields.count {
      let (source, line, pattern, path) = (
        fields[index], fields[index + 1], fields[index + 2], fields[index + 3]
      )
      answers[path] = source.isEmpty ? .some(nil) : (source, Int(line) ?? 0, pattern)
      index += 4
    }
    for path in ordered {
      let full = tree.path(path)
      var isDirectory: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory)
      let verdict = scope.verdict(forPath: full, isDirectory: isDirectory.boolValue)
      let answer = try #require(answers[path], "git gave no answer for \(path)")
      if let answer, !answer.pattern.hasPrefix("!") {
        #expect(
          verdict
            == .ignored(
              pattern: verdict.patternText ?? "", source: tree.path(answer.source),
              line: answer.line),
          "\(path): git says \(answer.source):\(answer.line) \(answer.pattern)")
      } else {
        #expect(verdict == .included, "\(path): git includes it")
      }
    }
  }

  @Test func nestedRepositoryDoesNotInheritItsParentsRules() async throws {
    let tree = TemporaryTree("nested")
    try tree.git(["init", "-q"])
    tree.file(".gitignore", "*.txt\n")
    tree.file("a.txt")
    tree.file("inner/b.txt")
    tree.file("inner/c.md")
    try tree.git(["init", "-q"], in: "inner")
    tree.file("inner/.gitignore", "*.md\n")
    let scope = try Scope(options: .init(roots: [tree.root], includeHidden: true))
    let record = await WalkRecord.walk(scope)
    let walked = Set(
      record.entries.filter { $0.status.kind != .directory && $0.path.contains("/inner/") }
        .map { String($0.path.dropFirst(tree.path("inner").count + 1)) })
    let listed = try tree.git(["ls-files", "-z", "--others", "--exclude-standard"], in: "inner")
    #expect(walked == Set(listed.split(separator: "\0").map(String.init)))
    #expect(walked.contains("b.txt"))
  }

  @Test func rootInsideAWorkTreeSeesTheRulesAboveIt() async throws {
    let tree = TemporaryTree("walkup")
    try tree.git(["init", "-q"])
    tree.file(".gitignore", "*.o\n/src/gen/\n")
    tree.file("src/.gitignore", "*.tmp\n")
    tree.file("src/main.c")
    tree.file("src/main.o")
    tree.file("src/x.tmp")
    tree.file("src/gen/g.c")
    tree.file("src/lib/util.c")
    let scope = try Scope(options: .init(roots: [tree.path("src")], includeHidden: true))
    let record = await WalkRecord.walk(scope)
    let walked = Set(
      record.entries.filter { $0.status.kind != .directory }
        .map { String($0.path.dropFirst(tree.path("src").count + 1)) })
    let listed = try tree.git(["ls-files", "-z", "--others", "--exclude-standard"], in: "src")
    #expect(walked == Set(listed.split(separator: "\0").map(String.init)))
  }

  /// A real repository for `example`.
  static func repository(_ example: IgnoreCase) throws -> TemporaryTree {
    let tree = TemporaryTree("gitignore")
    try tree.git(["init", "-q"])
    for file in example.files { tree.file(file, "x") }
    for (path, text) in example.rules { tree.file(path, text) }
    return tree
  }
}

extension ScopeVerdict {
  var patternText: String? {
    if case .ignored(let pattern, _, _) = self { return pattern }
    return nil
  }
}
