/// The extractors Lumen ships, by the name rule files use in `Extractor=`. Adding a format is
/// one line in `standard`; a rule naming anything else is refused when the rules are loaded.
public struct ExtractorCatalog: Sendable {
  public static let standard = ExtractorCatalog([
    PhotoExtractor.self,
    MusicExtractor.self,
    PDFExtractor.self,
    OpenDocumentExtractor.self,
    OOXMLExtractor.self,
    EPUBExtractor.self,
    HTMLExtractor.self,
    TextExtractor.self,
  ])

  /// In the order given; names are unique.
  public let types: [any Extractor.Type]

  public init(_ types: [any Extractor.Type]) {
    var seen = Set<String>()
    self.types = types.filter { seen.insert($0.name).inserted }
  }

  public func type(named name: String) -> (any Extractor.Type)? {
    types.first { $0.name == name }
  }

  public var names: [String] { types.map { $0.name } }

  /// The version of the extractor called `name`, for the re-extraction check after an upgrade.
  public func version(of name: String) -> Int? { type(named: name)?.version }
}
