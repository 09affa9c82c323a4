import Foundation
import TOMLKit

/// The user's settings for crawling, from `$XDG_CONFIG_HOME/lumen/config.toml` (default
/// `~/.config/lumen/config.toml`). Every key is optional; a missing file means the defaults.
///
/// ```toml
/// roots = ["~", "/srv/photos"]        # what `lumen index` and `lumen watch` crawl by default
/// exclude = ["*.iso", "~/VMs"]        # gitignore-style globs; replaces the default list
/// include_hidden = false              # index dot-files and dot-folders
/// gitignore = true                    # honour .gitignore / .ignore inside git work trees
/// one_file_system = false             # stay on each root's file system
/// batch_size = 500                    # items per transaction
/// expiration_days = 30                # items not seen by a crawl for this long disappear
/// ```
///
/// Unknown keys and wrong types are errors naming the file and line: a typo must not silently
/// index a whole disk.
public struct Config: Sendable, Equatable {
  /// Globs excluded unless the file lists its own: editor droppings and caches nobody searches.
  public static let defaultExcludes = ["*~", "*.swp", "*.swo", "__pycache__/", "lost+found/"]

  public var roots: [String] = []
  public var excludes: [String] = Config.defaultExcludes
  public var includeHidden = false
  public var gitignore = true
  public var oneFileSystem = false
  public var batchSize = 500
  public var expirationDays = 30
  /// The file these settings came from, or nil for the built-in defaults.
  public var source: String?

  public init() {}

  /// `$XDG_CONFIG_HOME/lumen/config.toml`, or `~/.config/lumen/config.toml`.
  public static func defaultPath(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String {
    let configHome: String
    if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
      configHome = xdg
    } else {
      configHome = (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
    }
    return configHome + "/lumen/config.toml"
  }

  /// Reads the config file; the defaults when it does not exist.
  public static func load(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(ConfigError) -> Config {
    try load(path: defaultPath(environment: environment), environment: environment)
  }

  public static func load(
    path: String, environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(ConfigError) -> Config {
    guard FileManager.default.fileExists(atPath: path) else { return Config() }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ConfigError(path: path, line: nil, message: "cannot read the file")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw ConfigError(path: path, line: nil, message: "not UTF-8 text")
    }
    return try parse(text, source: path, home: environment["HOME"] ?? NSHomeDirectory())
  }

  /// Parses TOML text; `source` names it in errors; `~` in roots and globs becomes `home`.
  public static func parse(
    _ text: String, source: String, home: String = NSHomeDirectory()
  ) throws(ConfigError) -> Config {
    let table: TOMLTable
    do {
      table = try TOMLTable(string: text)
    } catch let error as TOMLParseError {
      throw ConfigError(path: source, line: error.source.begin.line, message: error.description)
    } catch {
      throw ConfigError(path: source, line: nil, message: "\(error)")
    }
    var config = Config()
    config.source = source
    let reader = KeyReader(table: table, text: text, source: source)
    for key in table.keys {
      switch key {
      case "roots": config.roots = try reader.strings(key).map { expandingTilde($0, home: home) }
      case "exclude":
        config.excludes = try reader.strings(key).map { expandingTilde($0, home: home) }
      case "include_hidden": config.includeHidden = try reader.bool(key)
      case "gitignore": config.gitignore = try reader.bool(key)
      case "one_file_system": config.oneFileSystem = try reader.bool(key)
      case "batch_size": config.batchSize = try reader.int(key, in: 1...10_000)
      case "expiration_days": config.expirationDays = try reader.int(key, in: 1...36_500)
      default:
        throw ConfigError(
          path: source, line: reader.line(of: key),
          message: "unknown key '\(key)' (known: roots, exclude, include_hidden, gitignore, "
            + "one_file_system, batch_size, expiration_days)")
      }
    }
    return config
  }

  /// The exclude globs as the scope takes them, each naming this file as its source.
  public var excludeGlobs: [ExcludeGlob] {
    excludes.map { ExcludeGlob($0, source: source ?? "default excludes") }
  }

  /// `~` and `~/x` to the home folder.
  static func expandingTilde(_ path: String, home: String) -> String {
    if path == "~" { return home }
    if path.hasPrefix("~/") { return home + path.dropFirst(1) }
    if path.hasPrefix("!~/") { return "!" + home + path.dropFirst(2) }
    return path
  }
}

/// Reads typed values from the parsed table, naming the key and its line on a mismatch.
private struct KeyReader {
  let table: TOMLTable
  let text: String
  let source: String

  func strings(_ key: String) throws(ConfigError) -> [String] {
    guard let array = table[key]?.array else { throw mismatch(key, "an array of strings") }
    var result: [String] = []
    for element in array {
      guard let string = element.string else { throw mismatch(key, "an array of strings") }
      result.append(string)
    }
    return result
  }

  func bool(_ key: String) throws(ConfigError) -> Bool {
    guard let value = table[key]?.bool else { throw mismatch(key, "true or false") }
    return value
  }

  func int(_ key: String, in range: ClosedRange<Int>) throws(ConfigError) -> Int {
    guard let value = table[key]?.int else { throw mismatch(key, "an integer") }
    guard range.contains(value) else {
      throw ConfigError(
        path: source, line: line(of: key),
        message: "'\(key)' must be between \(range.lowerBound) and \(range.upperBound)")
    }
    return value
  }

  private func mismatch(_ key: String, _ expected: String) -> ConfigError {
    ConfigError(path: source, line: line(of: key), message: "'\(key)' must be \(expected)")
  }

  /// The line where `key` is assigned: TOMLKit keeps no positions for values, so look for it.
  func line(of key: String) -> Int? {
    var number = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      number += 1
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      for spelling in [key, "\"\(key)\"", "'\(key)'"] where trimmed.hasPrefix(spelling) {
        let rest = trimmed.dropFirst(spelling.count).drop { $0 == " " || $0 == "\t" }
        if rest.hasPrefix("=") { return number }
      }
    }
    return nil
  }
}
