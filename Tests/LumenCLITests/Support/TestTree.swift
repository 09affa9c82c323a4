import Foundation

/// A generated folder tree for the CLI tests: text files in nested folders, plus copies of
/// corpus photos and songs so that extraction workers have real work. Deterministic.
enum TestTree {
  static let corpus = LumenProcess.packageRoot.appendingPathComponent("../shared/corpus")
    .standardized.path

  static let media = [
    "images/DSCN0010.jpg", "images/Canon_40D.jpg", "images/72-dpi.tiff",
    "audio/beets-full.mp3", "audio/beets-full.flac", "audio/cbr.mp3",
    "documents/testPDF.pdf", "documents/testWORD.docx", "documents/LibreOfficeWriter_odt_1.3.odt",
  ]

  /// `folders` × `files` text files and `mediaCopies` rounds of the media files; returns the
  /// number of regular files written.
  @discardableResult
  static func make(at root: String, folders: Int, files: Int, mediaCopies: Int) throws -> Int {
    let manager = FileManager.default
    var count = 0
    for folder in 0..<folders {
      let path = root + "/d\(folder / 10)/f\(folder)"
      try manager.createDirectory(atPath: path, withIntermediateDirectories: true)
      for file in 0..<files {
        let text =
          "folder \(folder) file \(file) " + String(repeating: "word\(file % 17) ", count: 20)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path + "/note-\(file).txt"))
        count += 1
      }
    }
    for round in 0..<mediaCopies {
      let path = root + "/media/round-\(round)"
      try manager.createDirectory(atPath: path, withIntermediateDirectories: true)
      for relative in media {
        let name = (relative as NSString).lastPathComponent
        try manager.copyItem(atPath: corpus + "/" + relative, toPath: path + "/" + name)
        count += 1
      }
    }
    return count
  }

  /// Every entry under `root` (folders and files, with `root` itself), as absolute paths.
  static func entries(under root: String) -> [String: Bool] {
    var result: [String: Bool] = [root: true]
    guard let walker = FileManager.default.enumerator(atPath: root) else { return result }
    while let relative = walker.nextObject() as? String {
      var isDirectory: ObjCBool = false
      FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isDirectory)
      result[root + "/" + relative] = isDirectory.boolValue
    }
    return result
  }
}
