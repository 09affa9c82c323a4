import Foundation
import Glibc
import Testing

@testable import LumenCrawl

@Suite("Scope: hidden files, markers, exclude globs, one file system")
struct ScopeTests {
  /// A home-like tree exercising every rule at once.
  static func homeTree() throws -> TemporaryTree {
    let tree = TemporaryTree("scope")
    tree.file("notes.txt")
    tree.file(".bashrc")
    tree.file(".config/app/settings.ini")
    tree.file("Music/.nomedia")
    tree.file("Music/song.mp3")
    tree.file("Private/.lumenignore")
    tree.file("Private/diary.txt")
    tree.file("Photos/a.jpg")
    tree.file("Photos/big.iso")
    tree.file("Photos/raw/b.dng")
    tree.file("Projects/app/.gitignore", "build/\n*.log\n")
    tree.file("Projects/app/src/main.swift")
    tree.file("Projects/app/build/out.o")
    tree.file("Projects/app/debug.log")
    tree.file("Projects/loose/build/kept.o")
    try tree.git(["init", "-q"], in: "Projects/app")
    return tree
  }

  @Test func defaultsSkipHiddenIgnoredAndMarkedFolders() async throws {
    let tree = try Self.homeTree()
    let scope = try Scope(
      options: .init(roots: [tree.root], excludes: [ExcludeGlob("*.iso", source: "test")]))
    let record = await WalkRecord.walk(scope)
    #expect(
      record.relativePaths(under: tree.root) == [
        "Photos", "Photos/a.jpg", "Photos/raw", "Photos/raw/b.dng", "Projects", "Projects/app",
        "Projects/app/src", "Projects/app/src/main.swift", "Projects/loose",
        "Projects/loose/build", "Projects/loose/build/kept.o", "notes.txt",
      ])
    #expect(record.failures.isEmpty)
  }

  @Test func includeHiddenAndNoIgnoreFilesWidenTheScope() async throws {
    let tree = try Self.homeTree()
    let scope = try Scope(
      options: .init(roots: [tree.root], includeHidden: true, honorIgnoreFiles: false))
    let paths = Set(await WalkRecord.walk(scope).relativePaths(under: tree.root))
    #expect(paths.isSuperset(of: [".bashrc", ".config/app/settings.ini", "Photos/big.iso"]))
    #expect(paths.isSuperset(of: ["Projects/app/build/out.o", "Projects/app/debug.log"]))
    #expect(paths.contains("Projects/app/.git/HEAD"))
    // Markers hold whatever the other options say.
    #expect(!paths.contains { $0.hasPrefix("Music") || $0.hasPrefix("Private") })
  }

  @Test func singlePathVerdictsExplainEachRule() throws {
    let tree = try Self.homeTree()
    let scope = try Scope(
      options: .init(roots: [tree.root], excludes: [ExcludeGlob("*.iso", source: "test")]))
    #expect(scope.verdict(forPath: tree.root, isDirectory: true) == .included)
    #expect(scope.verdict(forPath: "/etc/passwd", isDirectory: false) == .outsideRoots)
    #expect(scope.verdict(forPath: tree.path(".bashrc"), isDirectory: false) == .hidden)
    #expect(
      scope.verdict(forPath: tree.path(".config/app/settings.ini"), isDirectory: false)
        == .hidden)
    #expect(
      scope.verdict(forPath: tree.path("Photos/big.iso"), isDirectory: false)
        == .excludedByGlob(pattern: "*.iso", source: "test"))
    #expect(
      scope.verdict(forPath: tree.path("Music/song.mp3"), isDirectory: false)
        == .markerFile(".nomedia"))
    #expect(
      scope.verdict(forPath: tree.path("Music"), isDirectory: true) == .markerFile(".nomedia"))
    #expect(
      scope.verdict(forPath: tree.path("Private/diary.txt"), isDirectory: false)
        == .markerFile(".lumenignore"))
    #expect(
      scope.verdict(forPath: tree.path("Projects/app/build/out.o"), isDirectory: false)
        == .ignored(pattern: "build/", source: tree.path("Projects/app/.gitignore"), line: 1))
    #expect(
      scope.verdict(forPath: tree.path("Projects/loose/build/kept.o"), isDirectory: false)
        == .included, "a .gitignore outside a work tree says nothing")
    #expect(
      scope.verdict(forPath: tree.path("Projects/app/src/new.swift"), isDirectory: false)
        == .included, "paths that do not exist yet (events) are judged too")
  }

  @Test func walkAndSinglePathsNeverDisagree() async throws {
    let tree = try Self.homeTree()
    for options in [
      Scope.Options(roots: [tree.root], excludes: ["*.iso", "raw/"]),
      Scope.Options(roots: [tree.root], includeHidden: true),
      Scope.Options(roots: [tree.root], includeHidden: true, honorIgnoreFiles: false),
    ] {
      let scope = try Scope(options: options)
      let walked = Set(await WalkRecord.walk(scope).entries.map(\.path))
      let everything = try FileManager.default.subpathsOfDirectory(atPath: tree.root)
      for relative in everything {
        let path = tree.path(relative)
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        let verdict = scope.verdict(forPath: path, isDirectory: isDirectory.boolValue)
        #expect(verdict.isIncluded == walked.contains(path), "\(relative): \(verdict)")
      }
    }
  }

  @Test(arguments: [
    ("*.iso", "Photos/big.iso", false),
    ("/Photos/raw", "Photos/raw/b.dng", false),
    ("raw/", "Photos/raw/b.dng", false),
    ("Photos/*.jpg", "Photos/a.jpg", false),
    ("*.jpg", "notes.txt", true),
    ("/raw", "Photos/raw/b.dng", true),
  ])
  func excludeGlobsUseGitignoreSyntaxAnchoredAtTheRoot(
    glob: String, relative: String, included: Bool
  ) throws {
    let tree = try Self.homeTree()
    let scope = try Scope(options: .init(roots: [tree.root], excludes: [ExcludeGlob(glob)]))
    #expect(scope.verdict(forPath: tree.path(relative), isDirectory: false).isIncluded == included)
  }

  @Test func absoluteExcludePathsAreAnchoredAtTheirRoot() throws {
    let tree = try Self.homeTree()
    let scope = try Scope(
      options: .init(roots: [tree.root], excludes: [ExcludeGlob(tree.path("Photos/raw"))]))
    #expect(
      scope.verdict(forPath: tree.path("Photos/raw/b.dng"), isDirectory: false)
        == .excludedByGlob(pattern: "/Photos/raw", source: "--exclude"))
    #expect(scope.verdict(forPath: tree.path("Photos/a.jpg"), isDirectory: false) == .included)
  }

  @Test func negatedExcludeReincludesPastHiddenRules() throws {
    let tree = try Self.homeTree()
    let scope = try Scope(
      options: .init(roots: [tree.root], excludes: ["*.mp3", "!keep.mp3"], includeHidden: true))
    #expect(!scope.verdict(forPath: tree.path("x/a.mp3"), isDirectory: false).isIncluded)
    #expect(scope.verdict(forPath: tree.path("x/keep.mp3"), isDirectory: false).isIncluded)
  }

  @Test func nestedRootsBelongToTheDeepest() throws {
    let tree = try Self.homeTree()
    let scope = try Scope(options: .init(roots: [tree.root, tree.path("Photos") + "/"]))
    #expect(scope.root(containing: tree.path("Photos/a.jpg"))?.path == tree.path("Photos"))
    #expect(scope.root(containing: tree.path("notes.txt"))?.path == tree.root)
    #expect(scope.root(containing: tree.root + "-sibling/x") == nil)
  }

  @Test func relativeRootsAreRefused() {
    #expect(throws: ScopeError.relativeRoot("docs")) {
      try Scope(options: .init(roots: ["docs"]))
    }
  }

  @Test func oneFileSystemStopsAtAMountPoint() async throws {
    let tree = TemporaryTree("mount")
    tree.file("here.txt")
    tree.folder("mnt")
    let mountPoint = tree.path("mnt")
    try TemporaryTree.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint])
    defer { _ = try? TemporaryTree.run("/bin/umount", [mountPoint]) }
    tree.file("mnt/there.txt")
    let across = await WalkRecord.walk(try Scope(options: .init(roots: [tree.root])))
    #expect(across.relativePaths(under: tree.root) == ["here.txt", "mnt", "mnt/there.txt"])
    let staying = await WalkRecord.walk(
      try Scope(options: .init(roots: [tree.root], oneFileSystem: true)))
    #expect(staying.relativePaths(under: tree.root) == ["here.txt"])
    let scope = try Scope(options: .init(roots: [tree.root], oneFileSystem: true))
    let device = try FileStatus.read(path: tree.path("mnt/there.txt")).device
    #expect(
      scope.verdict(forPath: tree.path("mnt/there.txt"), isDirectory: false, device: device)
        == .otherFileSystem)
  }
}
