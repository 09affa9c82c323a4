import Glibc
import LumenModel
import Synchronization

/// The one answer to "is this path in the index?", for the crawl's walk and for the watcher's
/// single-path events alike, so that the two can never disagree.
///
/// Rules, in the order they are applied to an entry (ripgrep's and fd's order, Lumen's markers):
/// 1. Paths under none of the roots are out; a root itself is always in.
/// 2. A name starting with `.` is out unless `includeHidden`.
/// 3. Exclude globs (config file, `--exclude`), in gitignore syntax anchored at each root: the
///    last matching glob decides; a `!glob` re-includes and skips the rules below.
/// 4. Unless `honorIgnoreFiles` is off: a work tree's `.git` folder is out; then `.ignore` files
///    (anywhere, ripgrep's convention), then `.gitignore` files and `.git/info/exclude` (inside
///    git work trees only; a folder holding `.git` starts one, and a nested repository does not
///    inherit its parent's rules). The deepest file with a matching line decides, and within it
///    the last matching line, exactly as git does; a folder that is out takes everything below
///    it along, so a negation cannot re-include a file inside an ignored folder (git's rule too).
/// 5. A folder holding `.lumenignore` or `.nomedia` is out with everything in it.
/// 6. With `oneFileSystem`, an entry on another device than its root is out.
public final class Scope: Sendable {
  public struct Options: Sendable, Equatable {
    /// Absolute paths; normalized by `Scope.init` (no `.`/`..`, no trailing `/`).
    public var roots: [String]
    public var excludes: [ExcludeGlob]
    public var includeHidden: Bool
    public var honorIgnoreFiles: Bool
    public var oneFileSystem: Bool

    public init(
      roots: [String], excludes: [ExcludeGlob] = [], includeHidden: Bool = false,
      honorIgnoreFiles: Bool = true, oneFileSystem: Bool = false
    ) {
      self.roots = roots
      self.excludes = excludes
      self.includeHidden = includeHidden
      self.honorIgnoreFiles = honorIgnoreFiles
      self.oneFileSystem = oneFileSystem
    }
  }

  /// A folder holding one of these is skipped with everything in it.
  public static let markerFileNames = [".lumenignore", ".nomedia"]

  public let options: Options
  public let roots: [ScopeRoot]
  private let frames = Mutex<[String: ScopeFrame]>([:])
  private static let frameCacheLimit = 8192

  public init(options: Options) throws(ScopeError) {
    var normalized = options
    normalized.roots = []
    var roots: [ScopeRoot] = []
    for (index, raw) in options.roots.enumerated() {
      guard raw.hasPrefix("/") else { throw .relativeRoot(raw) }
      let path = Self.normalize(raw)
      normalized.roots.append(path)
      let components = Self.components(of: path)
      let device = try? FileStatus.read(path: path).device
      roots.append(
        ScopeRoot(
          path: path, index: index, components: components,
          excludes: Self.excludeRules(options.excludes, root: path, depth: components.count),
          device: device, domainIdentifier: FileDomain.identifier(forRoot: path)))
    }
    self.options = normalized
    self.roots = roots
  }

  // MARK: Single paths (events)

  /// Whether `path` is in scope, and if not, why. `isDirectory` is what `lstat` says (a link
  /// to a folder is not a folder); `device`, when given, is checked against the root's.
  public func verdict(
    forPath rawPath: String, isDirectory: Bool, device: UInt64? = nil
  ) -> ScopeVerdict {
    guard rawPath.hasPrefix("/") else { return .outsideRoots }
    let path = Self.normalize(rawPath)
    guard let root = root(containing: path) else { return .outsideRoots }
    if path == root.path { return .included }
    let components = Self.components(of: path)
    let parent: ScopeFrame
    switch parentFrame(of: components, in: root) {
    case .success(let frame): parent = frame
    case .failure(let excluded): return excluded.verdict
    }
    let verdict = verdict(name: components.last!, isDirectory: isDirectory, in: parent)
    guard verdict.isIncluded else { return verdict }
    if isDirectory, let marker = Self.hints(forFolder: path).marker { return .markerFile(marker) }
    if options.oneFileSystem, let device, let rootDevice = root.device, device != rootDevice {
      return .otherFileSystem
    }
    return .included
  }

  /// The frame of the folder holding `components` (below `root`), built from the root down and
  /// cached; or why a folder on the way is out of scope.
  private func parentFrame(
    of components: [[UInt8]], in root: ScopeRoot
  ) -> Result<ScopeFrame, ExcludedFolder> {
    var frame = frame(forRoot: root)
    for depth in root.components.count..<(components.count - 1) {
      let name = components[depth]
      let verdict = verdict(name: name, isDirectory: true, in: frame)
      guard verdict.isIncluded else { return .failure(ExcludedFolder(verdict: verdict)) }
      let folder = Self.path(of: components[...depth])
      let hints = Self.hints(forFolder: folder)
      if let marker = hints.marker { return .failure(ExcludedFolder(verdict: .markerFile(marker))) }
      frame = cachedFrame(folder) {
        childFrame(path: folder, name: name, of: frame, hints: hints) {
          SmallFile.read(path: folder + "/" + $0)
        }
      }
    }
    return .success(frame)
  }

  private struct ExcludedFolder: Error {
    let verdict: ScopeVerdict
  }

  /// Where a walk starting at `folder` begins: its root, and the frame of the folder holding it
  /// (nil for a root). Nil when the folder is not in scope.
  func start(at folder: String) -> (root: ScopeRoot, parentFrame: ScopeFrame?)? {
    let path = Self.normalize(folder)
    guard let root = root(containing: path),
      verdict(forPath: path, isDirectory: true).isIncluded
    else { return nil }
    if path == root.path { return (root, nil) }
    guard case .success(let parent) = parentFrame(of: Self.components(of: path), in: root) else {
      return nil
    }
    return (root, parent)
  }

  /// `verdict(forPath:isDirectory:device:)` is anything but `.included`.
  public func isExcluded(path: String, isDirectory: Bool, device: UInt64? = nil) -> Bool {
    !verdict(forPath: path, isDirectory: isDirectory, device: device).isIncluded
  }

  /// Drops cached rules for `folder` and below: call it when an ignore file there changed.
  public func forgetCachedRules(under folder: String) {
    let prefix = folder.hasSuffix("/") ? folder : folder + "/"
    frames.withLock { cache in
      cache = cache.filter { key, _ in key != folder && !key.hasPrefix(prefix) }
    }
  }

  /// The deepest root `path` lies in.
  public func root(containing path: String) -> ScopeRoot? {
    var best: ScopeRoot?
    for root in roots
    where path == root.path || path.hasPrefix(root.path == "/" ? "/" : root.path + "/") {
      if best == nil || root.path.count > best!.path.count { best = root }
    }
    return best
  }

  // MARK: Walks

  /// The verdict for entry `name` of the folder `frame` describes. Markers inside a
  /// subfolder and devices are the walker's to check (it has the folder open).
  func verdict(name: [UInt8], isDirectory: Bool, in frame: ScopeFrame) -> ScopeVerdict {
    if !options.includeHidden && name.first == 0x2E { return .hidden }
    let excludes = frame.root.excludes
    if !excludes.isEmpty,
      let pattern = excludes.match(name: name, in: frame.components, isDirectory: isDirectory)
    {
      if pattern.isNegated { return .included }
      let source =
        options.excludes.indices.contains(pattern.line - 1)
        ? options.excludes[pattern.line - 1].source : excludes.source
      return .excludedByGlob(pattern: pattern.text, source: source)
    }
    guard options.honorIgnoreFiles else { return .included }
    if frame.isInWorkTree && name == Self.gitName { return .gitDirectory }
    for rules in frame.ignoreFiles {
      if let pattern = rules.match(name: name, in: frame.components, isDirectory: isDirectory) {
        return pattern.isNegated
          ? .included : .ignored(pattern: pattern.text, source: rules.source, line: pattern.line)
      }
    }
    for rules in frame.gitRules {
      if let pattern = rules.match(name: name, in: frame.components, isDirectory: isDirectory) {
        return pattern.isNegated
          ? .included : .ignored(pattern: pattern.text, source: rules.source, line: pattern.line)
      }
    }
    return .included
  }

  /// The frame of a root folder. When the root lies inside a git work tree whose top is above
  /// it, the `.gitignore` files from that top down apply too, as they do for git.
  public func frame(forRoot root: ScopeRoot) -> ScopeFrame {
    cachedFrame(root.path) {
      var top = root.components.count
      var found: Int? = nil
      if options.honorIgnoreFiles {
        while top >= 0 {
          let folder = Self.path(of: root.components[..<top])
          if Self.exists(folder == "/" ? "/.git" : folder + "/.git") {
            found = top
            break
          }
          top -= 1
        }
      }
      let start = found ?? root.components.count
      let startPath = Self.path(of: root.components[..<start])
      var frame = makeFrame(
        path: startPath, root: root, components: Array(root.components[..<start]), parent: nil,
        hints: Self.hints(forFolder: startPath)
      ) { SmallFile.read(path: (startPath == "/" ? "" : startPath) + "/" + $0) }
      for depth in start..<root.components.count {
        let folder = Self.path(of: root.components[...depth])
        frame = childFrame(
          path: folder, name: root.components[depth], of: frame,
          hints: Self.hints(forFolder: folder)
        ) { SmallFile.read(path: folder + "/" + $0) }
      }
      return frame
    }
  }

  /// The frame of folder `name` inside `parent`'s folder. `read` gives the bytes of a file in
  /// the folder (`.gitignore`, `.ignore`, `.git/info/exclude`), or nil.
  func childFrame(
    path: String, name: [UInt8], of parent: ScopeFrame, hints: DirectoryHints,
    read: (String) -> [UInt8]?
  ) -> ScopeFrame {
    makeFrame(
      path: path, root: parent.root, components: parent.components + [name], parent: parent,
      hints: hints, read: read)
  }

  private func makeFrame(
    path: String, root: ScopeRoot, components: [[UInt8]], parent: ScopeFrame?,
    hints: DirectoryHints, read: (String) -> [UInt8]?
  ) -> ScopeFrame {
    var inWorkTree = parent?.isInWorkTree ?? false
    var gitRules = parent?.gitRules ?? []
    var ignoreFiles = parent?.ignoreFiles ?? []
    if options.honorIgnoreFiles {
      let prefix = path == "/" ? "/" : path + "/"
      if hints.hasGit {
        inWorkTree = true
        gitRules = []
        if let text = read(".git/info/exclude") {
          let rules = IgnoreRules(
            text: text, source: prefix + ".git/info/exclude", folderDepth: components.count)
          if !rules.isEmpty { gitRules.append(rules) }
        }
      }
      if inWorkTree && hints.hasGitignore, let text = read(".gitignore") {
        let rules = IgnoreRules(
          text: text, source: prefix + ".gitignore", folderDepth: components.count)
        if !rules.isEmpty { gitRules.insert(rules, at: 0) }
      }
      if hints.hasIgnore, let text = read(".ignore") {
        let rules = IgnoreRules(
          text: text, source: prefix + ".ignore", folderDepth: components.count)
        if !rules.isEmpty { ignoreFiles.insert(rules, at: 0) }
      }
    }
    return ScopeFrame(
      path: path, root: root, components: components, ignoreFiles: ignoreFiles,
      gitRules: gitRules, isInWorkTree: inWorkTree)
  }

  private func cachedFrame(_ path: String, make: () -> ScopeFrame) -> ScopeFrame {
    if let cached = frames.withLock({ $0[path] }) { return cached }
    let frame = make()
    frames.withLock { cache in
      if cache.count >= Self.frameCacheLimit { cache.removeAll(keepingCapacity: true) }
      cache[path] = frame
    }
    return frame
  }

  // MARK: Paths

  private static let gitName = Array(".git".utf8)

  /// Lexically normalized: no empty, `.` or `..` components, no trailing `/`.
  public static func normalize(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/", omittingEmptySubsequences: true) {
      if part == "." { continue }
      if part == ".." {
        if !parts.isEmpty { parts.removeLast() }
        continue
      }
      parts.append(part)
    }
    return "/" + parts.joined(separator: "/")
  }

  /// The byte components of an absolute path (`/` has none).
  static func components(of path: String) -> [[UInt8]] {
    FaithfulPath.encode(path).split(separator: 0x2F).map(Array.init)
  }

  static func path(of components: ArraySlice<[UInt8]>) -> String {
    guard !components.isEmpty else { return "/" }
    var bytes: [UInt8] = []
    for component in components {
      bytes.append(0x2F)
      bytes += component
    }
    return FaithfulPath.decode(bytes)
  }

  private static func exists(_ path: String) -> Bool {
    SystemPath(path).withCString { faccessat(AT_FDCWD, $0, F_OK, AT_SYMLINK_NOFOLLOW) == 0 }
  }

  /// The hints of a folder found by asking for each name.
  static func hints(forFolder folder: String) -> DirectoryHints {
    let prefix = folder == "/" ? "/" : folder + "/"
    var hints = DirectoryHints()
    hints.hasGit = exists(prefix + ".git")
    hints.hasGitignore = exists(prefix + ".gitignore")
    hints.hasIgnore = exists(prefix + ".ignore")
    hints.marker = markerFileNames.first { exists(prefix + $0) }
    return hints
  }

  private static func excludeRules(
    _ globs: [ExcludeGlob], root: String, depth: Int
  ) -> IgnoreRules {
    var patterns: [IgnorePattern] = []
    for (index, glob) in globs.enumerated() {
      var text = glob.pattern
      // An absolute path under this root is anchored at the root.
      let negation = text.hasPrefix("!") ? "!" : ""
      let body = negation.isEmpty ? text : String(text.dropFirst())
      if root != "/", body == root || body.hasPrefix(root + "/") {
        text = negation + "/" + body.dropFirst(root.count + 1)
        if body == root { continue }
      }
      if let pattern = IgnorePattern(line: Array(text.utf8)[...], number: index + 1) {
        patterns.append(pattern)
      }
    }
    return IgnoreRules(patterns: patterns, source: "exclude globs", folderDepth: depth)
  }
}
