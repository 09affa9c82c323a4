/// Whether a path is in the index's scope, and if not, which rule kept it out, so `lumen`
/// can say why a file is missing.
public enum ScopeVerdict: Sendable, Hashable, CustomStringConvertible {
  case included
  /// Under none of the roots.
  case outsideRoots
  /// Its name (or a folder's above it) starts with a dot, and hidden files are skipped.
  case hidden
  /// An exclude glob (`--exclude`, the config file) matched.
  case excludedByGlob(pattern: String, source: String)
  /// A `.gitignore`, `.ignore` or `.git/info/exclude` line matched.
  case ignored(pattern: String, source: String, line: Int)
  /// A git repository's own `.git` folder.
  case gitDirectory
  /// The folder (or one above it) holds `.lumenignore` or `.nomedia`.
  case markerFile(String)
  /// On another file system than its root, and the crawl stays on one.
  case otherFileSystem

  public var isIncluded: Bool { self == .included }

  public var description: String {
    switch self {
    case .included: "included"
    case .outsideRoots: "outside every root"
    case .hidden: "hidden"
    case .excludedByGlob(let pattern, let source): "excluded by '\(pattern)' (\(source))"
    case .ignored(let pattern, let source, let line): "ignored by '\(pattern)' (\(source):\(line))"
    case .gitDirectory: "a .git folder"
    case .markerFile(let name): "in a folder holding \(name)"
    case .otherFileSystem: "on another file system"
    }
  }
}
