/// One root of a crawl as the scope sees it: its path, the exclude globs anchored at it, and the
/// device it lives on (for `--one-file-system`).
public struct ScopeRoot: Sendable {
  public let path: String
  /// Position in the options' roots.
  public let index: Int
  let components: [[UInt8]]
  let excludes: IgnoreRules
  /// The device of the root when the scope was made; nil if it did not exist then.
  public let device: UInt64?
  /// The domain of its file items (`FileDomain.identifier(forRoot:)`), worked out once rather
  /// than once per item.
  let domainIdentifier: String
}
