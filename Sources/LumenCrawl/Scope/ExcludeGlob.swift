/// An exclude glob and where it was given (`--exclude`, the config file's path).
public struct ExcludeGlob: Sendable, Hashable, ExpressibleByStringLiteral {
  public var pattern: String
  public var source: String

  public init(_ pattern: String, source: String = "--exclude") {
    self.pattern = pattern
    self.source = source
  }

  public init(stringLiteral value: String) { self.init(value) }
}
