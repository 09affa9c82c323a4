/// The rules in force inside one folder: which ignore files apply (deepest first), whether the
/// folder is in a git work tree, and which root it belongs to.
///
/// A walk makes one per folder as it descends and hands it to the folder's children, so ignore
/// files are read once per folder; single-path questions (the watcher's) build the same frames
/// from the root down and cache them. Immutable, so threads share them freely.
public final class ScopeFrame: Sendable {
  /// The folder, in `FaithfulPath` form.
  public let path: String
  public let root: ScopeRoot
  /// The folder's absolute path as byte components.
  let components: [[UInt8]]
  /// `.ignore` files, deepest first.
  let ignoreFiles: [IgnoreRules]
  /// `.gitignore` files, deepest first, then `.git/info/exclude` of the work tree.
  let gitRules: [IgnoreRules]
  let isInWorkTree: Bool

  init(
    path: String, root: ScopeRoot, components: [[UInt8]], ignoreFiles: [IgnoreRules],
    gitRules: [IgnoreRules], isInWorkTree: Bool
  ) {
    self.path = path
    self.root = root
    self.components = components
    self.ignoreFiles = ignoreFiles
    self.gitRules = gitRules
    self.isInWorkTree = isInWorkTree
  }
}
