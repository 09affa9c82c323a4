import Foundation

/// Where the package's own files and the shared corpus are, found from this source file so the
/// tests run from any working directory (and in CI, where the corpus sits next to the package).
enum TestPaths {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let rules = packageRoot.appendingPathComponent("rules").path
  static let corpus = packageRoot.deletingLastPathComponent()
    .appendingPathComponent("shared/corpus")

  /// A fresh directory under the system temp folder, for files a test writes.
  static func temporaryDirectory(_ label: String = #function) throws -> URL {
    let name = "lumen-extract-\(label.filter(\.isLetter))-\(UUID().uuidString.prefix(8))"
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}
