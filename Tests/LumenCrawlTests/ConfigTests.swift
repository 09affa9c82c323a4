import Foundation
import Testing

@testable import LumenCrawl

@Suite("Config: config.toml")
struct ConfigTests {
  @Test func everyKeyIsRead() throws {
    let text = """
      # crawl settings
      roots = ["~", "/srv/photos"]
      exclude = ["*.iso", "~/VMs/"]
      include_hidden = true
      gitignore = false
      one_file_system = true
      batch_size = 250
      expiration_days = 7
      """
    let config = try Config.parse(text, source: "/c/config.toml", home: "/home/ann")
    #expect(config.roots == ["/home/ann", "/srv/photos"])
    #expect(config.excludes == ["*.iso", "/home/ann/VMs/"])
    #expect(config.includeHidden)
    #expect(!config.gitignore)
    #expect(config.oneFileSystem)
    #expect(config.batchSize == 250)
    #expect(config.expirationDays == 7)
    #expect(config.excludeGlobs.first == ExcludeGlob("*.iso", source: "/c/config.toml"))
  }

  @Test func anEmptyFileMeansTheDefaults() throws {
    let config = try Config.parse("", source: "x.toml")
    #expect(config.roots.isEmpty)
    #expect(config.excludes == Config.defaultExcludes)
    #expect(config.batchSize == 500)
    #expect(config.expirationDays == 30)
    #expect(config.gitignore && !config.includeHidden && !config.oneFileSystem)
  }

  @Test(arguments: [
    ("roots = [\"a\"\nbatch_size = 3\n", 2),  // unterminated array: where TOML noticed
    ("batch_size = 500\ninclude_hidden = \"yes\"\n", 2),
    ("roots = \"/home\"\n", 1),
    ("\n\nbatchsize = 10\n", 3),
    ("batch_size = 0\n", 1),
    ("exclude = [1, 2]\n", 1),
  ])
  func malformedFilesNameTheFileAndLine(text: String, line: Int) {
    #expect {
      try Config.parse(text, source: "/home/ann/.config/lumen/config.toml")
    } throws: { error in
      guard let error = error as? ConfigError else { return false }
      return error.path == "/home/ann/.config/lumen/config.toml" && error.line == line
        && error.description.hasPrefix("/home/ann/.config/lumen/config.toml:\(line): ")
    }
  }

  @Test func loadFindsTheFileUnderXDGConfigHome() throws {
    let tree = TemporaryTree("config")
    let environment = ["XDG_CONFIG_HOME": tree.root, "HOME": "/home/ann"]
    #expect(try Config.load(environment: environment) == Config(), "no file: defaults")
    tree.file("lumen/config.toml", "roots = [\"~/Documents\"]\n")
    let config = try Config.load(environment: environment)
    #expect(config.roots == ["/home/ann/Documents"])
    #expect(config.source == tree.path("lumen/config.toml"))
    #expect(Config.defaultPath(environment: ["HOME": "/h"]) == "/h/.config/lumen/config.toml")
  }

  @Test func commandLineFlagsWinAndRootsAreMadeReal() throws {
    let tree = TemporaryTree("roots")
    tree.folder("real/docs")
    tree.symlink("via-link", to: "real")
    var config = try Config.parse(
      "roots = [\"/nonexistent\"]\nexclude = [\"*.iso\"]\ninclude_hidden = true\n",
      source: "/c.toml")
    let options = try config.scopeOptions(
      roots: ["via-link/docs", tree.path("real/docs/")], extraExcludes: ["*.tmp"],
      includeHidden: false, workingDirectory: tree.root)
    #expect(options.roots == [tree.path("real/docs")])
    #expect(options.excludes.map(\.pattern) == ["*.iso", "*.tmp"])
    #expect(options.excludes.map(\.source) == ["/c.toml", "--exclude"])
    #expect(!options.includeHidden)
    #expect(options.honorIgnoreFiles)
    #expect(throws: ScopeError.self) { try config.scopeOptions(roots: []) }
    config.roots = []
    #expect(throws: ScopeError.noRoots(configFile: "/c.toml")) {
      try config.scopeOptions(roots: [])
    }
    #expect(throws: ScopeError.missingRoot("nope", reason: "No such file or directory")) {
      try config.scopeOptions(roots: ["nope"], workingDirectory: tree.root)
    }
  }
}
