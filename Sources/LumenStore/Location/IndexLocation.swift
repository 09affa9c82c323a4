import Foundation

/// Where an index lives on disk. One SQLite file per named index, so separate programs (a mail
/// client, the crawler) can keep separate indexes, and a command can point at any file.
///
/// Precedence, as every `lumen` command resolves it: an explicit `--db PATH`, then the `LUMEN_DB`
/// environment variable, then `--index NAME` (default `default`) under
/// `$XDG_DATA_HOME/lumen/NAME.sqlite` (`~/.local/share/lumen/` when XDG_DATA_HOME is unset or
/// not absolute, as the XDG base-directory spec says).
public struct IndexLocation: Sendable, Hashable, CustomStringConvertible {
  /// The database file.
  public let path: String

  public init(path: String) {
    self.path = path
  }

  /// The default index name.
  public static let defaultName = "default"

  /// Resolves `--db`, `LUMEN_DB` and `--index` in that order of precedence.
  public static func resolve(
    databasePath: String? = nil, indexName: String? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(IndexLocationError) -> IndexLocation {
    if let databasePath {
      guard !databasePath.isEmpty else { throw .emptyDatabasePath }
      return IndexLocation(path: databasePath)
    }
    if let fromEnvironment = environment["LUMEN_DB"], !fromEnvironment.isEmpty {
      return IndexLocation(path: fromEnvironment)
    }
    return try named(indexName ?? defaultName, environment: environment)
  }

  /// `$XDG_DATA_HOME/lumen/NAME.sqlite`, after checking the name.
  public static func named(
    _ name: String, environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(IndexLocationError) -> IndexLocation {
    try validate(name: name)
    return IndexLocation(path: try dataFolder(environment: environment) + "/" + name + ".sqlite")
  }

  /// `$XDG_DATA_HOME/lumen`, or `~/.local/share/lumen`.
  public static func dataFolder(environment: [String: String]) throws(IndexLocationError)
    -> String
  {
    if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
      return trimmingTrailingSlashes(xdg) + "/lumen"
    }
    guard let home = environment["HOME"], home.hasPrefix("/") else { throw .noHomeFolder }
    return trimmingTrailingSlashes(home) + "/.local/share/lumen"
  }

  /// Index names become file names, so they are kept to a portable, unsurprising alphabet:
  /// letters, digits, `-`, `_`, and `.` anywhere but first (no hidden files, no `..`).
  public static func validate(name: String) throws(IndexLocationError) {
    guard let first = name.unicodeScalars.first, name.utf8.count <= 200 else {
      throw .invalidIndexName(name)
    }
    guard first != "." else { throw .invalidIndexName(name) }
    for scalar in name.unicodeScalars {
      switch scalar {
      case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": continue
      default: throw .invalidIndexName(name)
      }
    }
  }

  /// The folder holding the file.
  public var folder: String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  public var description: String { path }

  private static func trimmingTrailingSlashes(_ path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    return String(trimmed)
  }
}

/// Why a location could not be resolved or prepared.
public enum IndexLocationError: Error, Equatable, CustomStringConvertible {
  case invalidIndexName(String)
  case emptyDatabasePath
  case noHomeFolder
  case cannotCreateFolder(path: String, reason: String)
  case cannotSecureFile(path: String, reason: String)
  case missingDatabase(path: String)
  case cannotMoveAside(path: String, reason: String)

  public var description: String {
    switch self {
    case .invalidIndexName(let name):
      "invalid index name '\(name)': use letters, digits, '-', '_' and '.' (not first)"
    case .emptyDatabasePath:
      "the database path is empty"
    case .noHomeFolder:
      "cannot find the data folder: neither XDG_DATA_HOME nor HOME is an absolute path"
    case .cannotCreateFolder(let path, let reason):
      "cannot create the index folder \(path): \(reason)"
    case .cannotSecureFile(let path, let reason):
      "cannot restrict the permissions of \(path): \(reason)"
    case .missingDatabase(let path):
      "no index at \(path) (nothing has been indexed there yet)"
    case .cannotMoveAside(let path, let reason):
      "cannot move the unusable index \(path) aside: \(reason)"
    }
  }
}
