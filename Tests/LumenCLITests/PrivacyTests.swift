import Foundation
import Glibc
import Testing

/// The index is as private as the files it describes: its folder is 0700 and its files 0600
/// whatever the umask, and Lumen never indexes a file its user cannot read; a file made
/// unreadable leaves the index at the next crawl. The tests run as root, who reads
/// everything, so the crawls that matter run as `nobody` (setpriv).
@Suite("Privacy", .serialized)
struct PrivacyTests {
  @Test func theDataFolderIsPrivateAndSoAreTheIndexFiles() async throws {
    let lumen = try LumenProcess()
    defer { lumen.cleanUp() }
    let root = lumen.home.appendingPathComponent("tree").path
    try TestTree.make(at: root, folders: 2, files: 3, mediaCopies: 0)
    let previous = umask(0o022)
    defer { umask(previous) }
    let result = try await lumen.run(["index", root])
    #expect(result.status == 0, "\(result.stderr)")
    let folder = lumen.home.appendingPathComponent("data/lumen").path
    #expect(mode(folder) == 0o700)
    let files = try FileManager.default.contentsOfDirectory(atPath: folder)
    #expect(files.contains("default.sqlite"))
    for file in files { #expect(mode(folder + "/" + file) == 0o600, "\(file)") }
  }

  @Test func aFileMadeUnreadableLeavesTheIndexAtTheNextCrawl() async throws {
    try #require(geteuid() == 0, "the crawl must run as another user: the tests run as root")
    let lumen = try LumenProcess()
    defer { lumen.cleanUp() }
    // nobody needs a copy of the binary it can run, a tree it owns and an index it can write.
    let home = lumen.home.path
    let bin = home + "/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: LumenProcess.executable.path, toPath: bin + "/lumen")
    let root = home + "/nobody-tree"
    try TestTree.make(at: root, folders: 2, files: 3, mediaCopies: 1)
    try Data("root's own\n".utf8).write(to: URL(fileURLWithPath: root + "/roots-secret.txt"))
    let state = home + "/nobody-state"
    try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
    try await Command.run("/bin/chown", ["-R", "nobody:nogroup", root, state])
    // Root's file is unreadable to nobody from the start: it never enters the index.
    try await Command.run("/bin/chown", ["root:root", root + "/roots-secret.txt"])
    chmod(root + "/roots-secret.txt", 0o600)
    chmod(home, 0o755)
    let database = state + "/index.sqlite"

    func crawlAsNobody() async throws -> [String: Any] {
      let output = try await Command.run(
        "/usr/bin/setpriv",
        [
          "--reuid=nobody", "--regid=nogroup", "--clear-groups", "/usr/bin/env",
          "HOME=\(state)", "XDG_CONFIG_HOME=\(state)/config", "XDG_DATA_HOME=\(state)/data",
          "LUMEN_RULES_DIR=\(LumenProcess.packageRoot.path)/rules",
          bin + "/lumen", "index", "--db", database, "--json", root,
        ])
      let line = try #require(output.split(separator: "\n").first { $0.hasPrefix("{") })
      return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    func indexed() throws -> Set<String> { Set(try IndexFile(path: database).files().keys) }

    let first = try await crawlAsNobody()
    let secret = root + "/roots-secret.txt"
    #expect(!(try indexed()).contains(secret), "a file its user cannot read is never indexed")
    #expect((first["errors"] as? [[String: String]])?.contains { $0["path"] == secret } == true)
    #expect((first["extractionFailures"] as? Int) == 0)
    let photo = root + "/media/round-0/DSCN0010.jpg"
    #expect(try indexed().contains(photo), "nobody's own files are indexed, photos extracted")

    // nobody makes a file and a folder unreadable (as a person would with chmod 000).
    chmod(photo, 0)
    chmod(root + "/d0/f1", 0)
    let second = try await crawlAsNobody()
    let now = try indexed()
    #expect(!now.contains(photo))
    #expect(!now.contains(root + "/d0/f1"))
    #expect(!now.contains { $0.hasPrefix(root + "/d0/f1/") })
    #expect(now.contains(root + "/d0/f0/note-0.txt"), "the rest stays")
    let reasons = (second["errors"] as? [[String: String]] ?? []).filter {
      $0["path"] == photo || $0["path"] == root + "/d0/f1"
    }
    #expect(reasons.count == 2)
    #expect(reasons.allSatisfy { $0["reason"] == "Permission denied" })
    #expect((second["removed"] as? Int ?? 0) >= 5, "the photo, the folder and its 3 notes")
  }

  private func mode(_ path: String) -> mode_t {
    var info = stat()
    return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0
  }
}
