/// A rule file Lumen refuses, with the file and line to fix: a malformed line, an unknown key,
/// an extractor that does not exist, a limit that is not a number. Loading stops at the first
/// one, so a typo never silently drops a rule.
public struct RuleError: Error, Equatable, CustomStringConvertible {
  public let path: String
  /// 0 when the problem is the file as a whole (unreadable, not UTF-8).
  public let line: Int
  public let message: String

  public init(path: String, line: Int, message: String) {
    self.path = path
    self.line = line
    self.message = message
  }

  public var description: String {
    line > 0 ? "\(path):\(line): \(message)" : "\(path): \(message)"
  }
}
