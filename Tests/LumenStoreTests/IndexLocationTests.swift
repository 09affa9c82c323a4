import Foundation
import Testing

@testable import LumenStore

@Suite struct IndexLocationTests {
  @Test func precedenceIsDbThenEnvironmentThenName() throws {
    let environment = ["LUMEN_DB": "/env/db.sqlite", "XDG_DATA_HOME": "/data", "HOME": "/home/u"]
    #expect(
      try IndexLocation.resolve(
        databasePath: "/explicit.sqlite", indexName: "mail", environment: environment
      ).path
        == "/explicit.sqlite")
    #expect(
      try IndexLocation.resolve(indexName: "mail", environment: environment).path
        == "/env/db.sqlite")
    #expect(
      try IndexLocation.resolve(indexName: "mail", environment: ["XDG_DATA_HOME": "/data"]).path
        == "/data/lumen/mail.sqlite")
    #expect(
      try IndexLocation.resolve(environment: ["HOME": "/home/u"]).path
        == "/home/u/.local/share/lumen/default.sqlite")
    // A relative XDG_DATA_HOME is invalid by the spec and ignored.
    #expect(
      try IndexLocation.resolve(environment: ["XDG_DATA_HOME": "rel", "HOME": "/h"]).path
        == "/h/.local/share/lumen/default.sqlite")
  }

  @Test(arguments: ["mail", "my-index_2", "a.b", "X9"])
  func validNames(name: String) throws {
    try IndexLocation.validate(name: name)
  }

  @Test(arguments: ["", ".hidden", "..", "a/b", "a b", "naïve", "a\u{0}b"])
  func invalidNamesAreRefusedWithTheName(name: String) {
    #expect(throws: IndexLocationError.invalidIndexName(name)) {
      try IndexLocation.validate(name: name)
    }
    let error = IndexLocationError.invalidIndexName(name)
    #expect(error.description.contains("invalid index name"))
  }

  @Test func newFolderIs0700AndFileIs0600() async throws {
    let folder = try TemporaryFolder()
    let location = try IndexLocation.named(
      "private", environment: ["XDG_DATA_HOME": folder.path + "/data"])
    let index = try SearchableIndex(location: location)
    try await index.indexSearchableItems([item("a", [(.title, .text("x"))])])
    #expect(try mode(folder.path + "/data/lumen") == 0o700)
    #expect(try mode(folder.path + "/data") == 0o700)
    #expect(try mode(location.path) == 0o600)
    #expect(try mode(location.path + "-wal") == 0o600)
  }

  @Test func existingFolderKeepsItsMode() throws {
    let folder = try TemporaryFolder()
    chmod(folder.path, 0o755)
    _ = try SearchableIndex(location: folder.location())
    #expect(try mode(folder.path) == 0o755)
    #expect(try mode(folder.location().path) == 0o600)
  }

  private func mode(_ path: String) throws -> mode_t {
    var info = stat()
    guard stat(path, &info) == 0 else { throw CocoaError(.fileNoSuchFile) }
    return info.st_mode & 0o777
  }
}
