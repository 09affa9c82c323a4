/// A file to extract, as the crawler or `lumen extract` knows it. Codable so that a worker
/// process can receive it.
public struct ExtractionJob: Sendable, Equatable, Codable {
  /// The path in `FaithfulPath` form.
  public let path: String
  /// What the sniffer said, e.g. `image/jpeg`.
  public let mimeType: String
  /// The content type the content-type registry gave, or nil (or `public.data`) when it knows
  /// none; then the first matching rule's `ContentType=` applies.
  public let contentType: String?

  public init(path: String, mimeType: String, contentType: String? = nil) {
    self.path = path
    self.mimeType = mimeType
    self.contentType = contentType
  }
}
