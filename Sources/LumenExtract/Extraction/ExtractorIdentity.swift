/// An extractor's name and version, recorded with every item it produced so that after an
/// upgrade exactly the files whose extractor changed are read again.
public struct ExtractorIdentity: Sendable, Hashable, Codable, CustomStringConvertible {
  public let name: String
  public let version: Int

  public init(name: String, version: Int) {
    self.name = name
    self.version = version
  }

  public init(_ type: any Extractor.Type) {
    self.init(name: type.name, version: type.version)
  }

  public var description: String { "\(name) \(version)" }
}
