/// A folder or entry the walk could not read; the crawl goes on.
public struct CrawlError: Error, Sendable, Equatable, CustomStringConvertible {
  public let path: String
  public let error: SystemCallError

  public init(path: String, error: SystemCallError) {
    self.path = path
    self.error = error
  }

  public var description: String { "\(path): \(error)" }
}
