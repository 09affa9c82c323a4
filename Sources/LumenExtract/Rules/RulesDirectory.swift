import Foundation

/// A folder Lumen reads rules from: the content-type declarations (`content-types.conf`) and the
/// extractor rules (`*.rule`).
///
/// Shipped rules come from exactly one folder, the first of these that applies:
/// 1. `$LUMEN_RULES_DIR`, when set (tests and packagers point it anywhere);
/// 2. `<prefix>/share/lumen/rules`, beside an installed `<prefix>/bin/lumen`;
/// 3. the source tree's `rules/`, found by walking up from the executable to a folder holding
///    `Package.swift` and `rules/` (a development build or `swift test`).
///
/// A user's own rules in `$XDG_CONFIG_HOME/lumen/rules` (default `~/.config/lumen/rules`) come
/// after them, so what they declare wins, the way user UTIs override system ones on macOS.
public struct RulesDirectory: Sendable, Equatable, CustomStringConvertible {
  public enum Origin: String, Sendable, Codable {
    case environment
    case installed
    case sourceTree
    case user
  }

  public let path: String
  public let origin: Origin

  public init(path: String, origin: Origin) {
    self.path = path
    self.origin = origin
  }

  public var description: String { "\(path) (\(origin.rawValue))" }

  /// Whether these are the user's overrides rather than the shipped rules.
  public var isUser: Bool { origin == .user }

  /// The folders to read, shipped first, then the user's (only when it exists).
  public static func searchPath(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    executablePath: String? = currentExecutablePath()
  ) -> [RulesDirectory] {
    var result: [RulesDirectory] = []
    if let shipped = shipped(environment: environment, executablePath: executablePath) {
      result.append(shipped)
    }
    let user = userDirectory(environment: environment)
    if isDirectory(user.path) { result.append(user) }
    return result
  }

  /// The one folder of shipped rules, or nil when none can be found.
  public static func shipped(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    executablePath: String? = currentExecutablePath()
  ) -> RulesDirectory? {
    if let override = environment["LUMEN_RULES_DIR"], !override.isEmpty {
      return RulesDirectory(path: override, origin: .environment)
    }
    guard let executablePath else { return nil }
    let binDirectory = (executablePath as NSString).deletingLastPathComponent
    let prefix = (binDirectory as NSString).deletingLastPathComponent
    let installed = (prefix as NSString).appendingPathComponent("share/lumen/rules")
    if isDirectory(installed) { return RulesDirectory(path: installed, origin: .installed) }
    var folder = binDirectory
    while folder != "/" && !folder.isEmpty {
      let rules = (folder as NSString).appendingPathComponent("rules")
      let manifest = (folder as NSString).appendingPathComponent("Package.swift")
      if isDirectory(rules) && FileManager.default.fileExists(atPath: manifest) {
        return RulesDirectory(path: rules, origin: .sourceTree)
      }
      folder = (folder as NSString).deletingLastPathComponent
    }
    return nil
  }

  /// `$XDG_CONFIG_HOME/lumen/rules`, whether or not it exists.
  public static func userDirectory(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> RulesDirectory {
    let configHome: String
    if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
      configHome = xdg
    } else {
      let home = environment["HOME"] ?? NSHomeDirectory()
      configHome = (home as NSString).appendingPathComponent(".config")
    }
    return RulesDirectory(
      path: (configHome as NSString).appendingPathComponent("lumen/rules"), origin: .user)
  }

  /// The files directly in this folder whose names end with `suffix`, as full paths sorted by
  /// name, so `10-jpeg.rule` is read before `90-fallback.rule`. Hidden files are left out (an
  /// editor's `.x.rule.swp` is not a rule).
  public func files(withSuffix suffix: String) throws -> [String] {
    let names = try FileManager.default.contentsOfDirectory(atPath: path)
    return names.filter { $0.hasSuffix(suffix) && !$0.hasPrefix(".") }.sorted()
      .map { (path as NSString).appendingPathComponent($0) }
  }

  /// The running program's own path (`/proc/self/exe`), which locates installed and
  /// development rules without depending on the working directory.
  public static func currentExecutablePath() -> String? {
    if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      return resolved
    }
    return CommandLine.arguments.first.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
  }

  private static func isDirectory(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
      && isDirectory.boolValue
  }
}
