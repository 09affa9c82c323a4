import Foundation
import Glibc
import LumenExtract
import LumenModel

/// Where the package and the shared corpus are, from this file's own path (the corpus sits
/// beside the package: `../shared/corpus`).
enum SniffFixtures {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path
  static let rulesFolder = packageRoot + "/rules"
  static let corpus = URL(fileURLWithPath: packageRoot).appendingPathComponent("../shared/corpus")
    .standardizedFileURL.path

  /// The shipped declarations, loaded the way `lumen` loads them.
  static let registry: ContentTypeRegistry = {
    try! ContentTypeRules.registry(in: [RulesDirectory(path: rulesFolder, origin: .sourceTree)])
  }()
}

/// A temporary folder for one test, removed afterwards.
final class SniffScratch {
  let root: String

  init() {
    var template = Array("/tmp/lumen-sniff-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    root = String(cString: made!)
  }

  deinit { try? FileManager.default.removeItem(atPath: root) }

  @discardableResult
  func write(_ name: String, _ bytes: [UInt8]) -> String {
    let path = root + "/" + name
    try! FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    precondition(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    return path
  }

  @discardableResult
  func write(_ name: String, _ text: String) -> String { write(name, Array(text.utf8)) }
}
