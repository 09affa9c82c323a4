/// The patterns of one ignore file (or of the exclude globs), with the folder they are relative
/// to. Within one file the last matching pattern decides, as in git.
struct IgnoreRules: Sendable {
  /// Where the patterns came from: a file's path, `--exclude` or the config file.
  let source: String
  /// How many components the patterns' folder has (`/home/ann` has 2): the path a pattern
  /// sees starts after them.
  let folderDepth: Int
  let patterns: [IgnorePattern]

  init(text: [UInt8], source: String, folderDepth: Int) {
    var bytes = text[...]
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }  // a UTF-8 BOM
    var patterns: [IgnorePattern] = []
    var number = 0
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
      number += 1
      if let pattern = IgnorePattern(line: line, number: number) { patterns.append(pattern) }
    }
    self.init(patterns: patterns, source: source, folderDepth: folderDepth)
  }

  init(patterns: [IgnorePattern], source: String, folderDepth: Int) {
    self.source = source
    self.folderDepth = folderDepth
    self.patterns = patterns
  }

  var isEmpty: Bool { patterns.isEmpty }

  /// The last pattern matching `name` in a folder whose absolute components are `folder`.
  func match(name: [UInt8], in folder: [[UInt8]], isDirectory: Bool) -> IgnorePattern? {
    guard folder.count >= folderDepth else { return nil }
    let path = RelativePath(folder: folder[folderDepth...], name: name)
    for pattern in patterns.reversed() where pattern.matches(path, isDirectory: isDirectory) {
      return pattern
    }
    return nil
  }
}
