import LumenModel

/// Why the content types could not be loaded; each case names the file (and line).
public enum ContentTypeRulesError: Error, Equatable, CustomStringConvertible {
  case noShippedRules(searched: [String])
  case unreadable(path: String, reason: String)
  case malformed(KeyFileError)

  public var description: String {
    switch self {
    case .noShippedRules(let searched):
      let list = searched.isEmpty ? "nothing found" : searched.joined(separator: ", ")
      return "no shipped rules folder with \(ContentTypeRules.fileName) "
        + "(set LUMEN_RULES_DIR; searched: \(list))"
    case .unreadable(let path, let reason): return "\(path): cannot read: \(reason)"
    case .malformed(let error): return error.description
    }
  }
}
