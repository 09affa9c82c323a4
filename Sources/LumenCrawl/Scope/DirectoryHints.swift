/// What a folder holds that changes the rules below it, as a walk sees in its listing (or a
/// single-path question finds with `faccessat`).
struct DirectoryHints: Sendable, Equatable {
  var hasGit = false
  var hasGitignore = false
  var hasIgnore = false
  /// `.lumenignore` or `.nomedia`, when present.
  var marker: String? = nil

  private static let git = Array(".git".utf8)
  private static let gitignore = Array(".gitignore".utf8)
  private static let ignore = Array(".ignore".utf8)
  private static let markers = Scope.markerFileNames.map { Array($0.utf8) }

  /// Notes what one entry name means for its folder.
  mutating func note(_ name: [UInt8]) {
    guard name.first == 0x2E else { return }
    if name == Self.git {
      hasGit = true
    } else if name == Self.gitignore {
      hasGitignore = true
    } else if name == Self.ignore {
      hasIgnore = true
    } else if Self.markers.contains(name) {
      marker = String(decoding: name, as: UTF8.self)
    }
  }
}
