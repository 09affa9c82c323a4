import Foundation
import Glibc
import LumenModel

extension Config {
  /// The scope of a crawl from this file and the command line: `roots` (the file's when none
  /// are given) made absolute and real, the file's exclude globs then `extraExcludes`, and each
  /// flag the command line gives winning over the file's setting.
  public func scopeOptions(
    roots given: [String], extraExcludes: [String] = [], includeHidden: Bool? = nil,
    gitignore: Bool? = nil, oneFileSystem: Bool? = nil,
    workingDirectory: String = FileManager.default.currentDirectoryPath
  ) throws(ScopeError) -> Scope.Options {
    let chosen = given.isEmpty ? roots : given
    guard !chosen.isEmpty else { throw .noRoots(configFile: source) }
    var canonical: [String] = []
    for root in chosen {
      let path = try Scope.canonicalRoot(root, relativeTo: workingDirectory)
      if !canonical.contains(path) { canonical.append(path) }
    }
    return Scope.Options(
      roots: canonical,
      excludes: excludeGlobs + extraExcludes.map { ExcludeGlob($0, source: "--exclude") },
      includeHidden: includeHidden ?? self.includeHidden,
      honorIgnoreFiles: gitignore ?? self.gitignore,
      oneFileSystem: oneFileSystem ?? self.oneFileSystem)
  }
}

extension Scope {
  /// A root as the crawl uses it: absolute, with symbolic links resolved (the walk never
  /// follows links, so a root given through one must be resolved once, here), and existing.
  public static func canonicalRoot(
    _ path: String, relativeTo workingDirectory: String
  ) throws(ScopeError) -> String {
    let absolute = path.hasPrefix("/") ? path : workingDirectory + "/" + path
    let resolved = SystemPath(absolute).withCString { pointer -> String? in
      guard let real = realpath(pointer, nil) else { return nil }
      defer { free(real) }
      let length = strlen(real)
      return FaithfulPath.decode(
        UnsafeRawBufferPointer(start: real, count: length).map { $0 })
    }
    guard let resolved else {
      throw .missingRoot(path, reason: String(cString: strerror(errno)))
    }
    return resolved
  }
}
