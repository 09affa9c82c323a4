/// Where a rule was written: the rule file and the line of its group header, shown by
/// `lumen rules` and `lumen extract` ("chosen by rules/10-photos.rule:3").
public struct RuleSource: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The file's path as it was loaded.
  public let path: String
  /// The file name alone; rules are ordered by it.
  public let fileName: String
  public let line: Int

  public init(path: String, fileName: String, line: Int) {
    self.path = path
    self.fileName = fileName
    self.line = line
  }

  public var description: String { "\(path):\(line)" }
}
