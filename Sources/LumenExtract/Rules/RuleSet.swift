import Foundation
import Synchronization

/// Every extraction rule in effect, in file-name order: the shipped rules/ directory merged
/// with the user's `$XDG_CONFIG_HOME/lumen/rules/`, the way udev and systemd merge drop-in
/// directories. All `*.rule` names from both are sorted together; where both have a file of the
/// same name the user's replaces the shipped one (an empty one switches it off), and new names
/// add rules at their place in the order. A user can therefore override, disable or add rules
/// without rebuilding, and decide where theirs fall by naming them (`05-…` before `10-photos`).
public struct RuleSet: Sendable {
  /// In order: file name, then position in the file.
  public let rules: [ExtractionRule]
  /// The files read, in order.
  public let files: [String]

  /// Answers of `rules(forMIME:)` by MIME type: a crawl asks for the same few dozen types
  /// thousands of times, and matching every pattern of every rule each time was 2% of a
  /// crawl's CPU.
  private let matches = MatchCache()

  public init(rules: [ExtractionRule], files: [String] = []) {
    self.rules = rules
    self.files = files
  }

  /// The rules for `mimeType`: every rule whose `MimeTypes` match and `BlockMimeTypes` do not,
  /// highest `Priority` first, ties in file-name order. The first whose extractor succeeds
  /// wins; the rest are fallbacks.
  public func rules(forMIME mimeType: String) -> [ExtractionRule] {
    if let known = matches.rules(for: mimeType) { return known }
    let found = matching(mimeType)
    matches.remember(found, for: mimeType)
    return found
  }

  private func matching(_ mimeType: String) -> [ExtractionRule] {
    rules.enumerated()
      .filter { $0.element.matches(mimeType) }
      .sorted { a, b in
        a.element.priority != b.element.priority
          ? a.element.priority > b.element.priority : a.offset < b.offset
      }
      .map(\.element)
  }

  /// Parses one rule file's text; `path` is what errors and `RuleSource` show.
  public static func parse(
    _ text: String, path: String, catalog: ExtractorCatalog = .standard
  ) throws(RuleError) -> [ExtractionRule] {
    let fileName = path.split(separator: "/").last.map(String.init) ?? path
    return try RuleFileParser(path: path, fileName: fileName, catalog: catalog).parse(text)
  }

  /// Loads `shippedDirectory`/*.rule and `userDirectory`/*.rule (either may be nil or missing).
  /// Stops at the first broken file with its path and line.
  public static func load(
    shippedDirectory: String?, userDirectory: String? = RuleSet.userDirectory(),
    catalog: ExtractorCatalog = .standard
  ) throws(RuleError) -> RuleSet {
    var byName: [String: String] = [:]
    for directory in [shippedDirectory, userDirectory].compactMap({ $0 }) {
      for name in ruleFileNames(in: directory) {
        byName[name] = directory.hasSuffix("/") ? directory + name : directory + "/" + name
      }
    }
    var rules: [ExtractionRule] = []
    var files: [String] = []
    for name in byName.keys.sorted() {
      let path = byName[name]!
      guard let data = FileManager.default.contents(atPath: path) else {
        throw RuleError(path: path, line: 0, message: "cannot be read")
      }
      guard let text = String(data: data, encoding: .utf8) else {
        throw RuleError(path: path, line: 0, message: "is not UTF-8 text")
      }
      rules += try parse(text, path: path, catalog: catalog)
      files.append(path)
    }
    return RuleSet(rules: rules, files: files)
  }

  /// `$XDG_CONFIG_HOME/lumen/rules`, or `~/.config/lumen/rules` when XDG_CONFIG_HOME is unset
  /// or not absolute (as the XDG Base Directory specification says).
  public static func userDirectory(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String? {
    if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
      return config + "/lumen/rules"
    }
    guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
    return home + "/.config/lumen/rules"
  }

  private static func ruleFileNames(in directory: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.filter { $0.hasSuffix(".rule") && !$0.hasPrefix(".") }
  }
}

/// The memo behind `RuleSet.rules(forMIME:)`, shared by the copies of one rule set. Bounded:
/// MIME types come from files' contents, so a hostile tree could make up any number of them.
private final class MatchCache: Sendable {
  private let byType = Mutex<[String: [ExtractionRule]]>([:])
  static let capacity = 512

  func rules(for mimeType: String) -> [ExtractionRule]? {
    byType.withLock { $0[mimeType] }
  }

  func remember(_ rules: [ExtractionRule], for mimeType: String) {
    byType.withLock { cache in
      if cache.count >= Self.capacity { cache.removeAll(keepingCapacity: true) }
      cache[mimeType] = rules
    }
  }
}
