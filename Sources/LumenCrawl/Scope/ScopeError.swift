/// The scope's options cannot be used.
public enum ScopeError: Error, Equatable, CustomStringConvertible {
  case relativeRoot(String)
  case missingRoot(String, reason: String)
  /// Nothing to crawl: no root given and none in the config file.
  case noRoots(configFile: String?)

  public var description: String {
    switch self {
    case .relativeRoot(let path): "root '\(path)' is not an absolute path"
    case .missingRoot(let path, let reason): "\(path): \(reason)"
    case .noRoots(let file):
      "no folder to index: give one, or set roots in \(file ?? Config.defaultPath())"
    }
  }
}
