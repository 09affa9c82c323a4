/// The structured data of one HTML page: schema.org (or other vocabulary) microdata items and
/// JSON-LD items, each in extruct's native shape. Microdata items are
/// `{"type": …, "id"?: …, "properties": {…}}` (or `"value"` when an item has no properties),
/// nested items inline, a property with several values a list; JSON-LD items are the parsed
/// blocks, a top-level array flattened into its elements.
public struct StructuredData: Sendable, Equatable {
  public var microdata: [StructuredValue]
  public var jsonLD: [StructuredValue]
  /// JSON-LD blocks that could not be parsed even leniently, with the parser's reason.
  public var problems: [String]

  public init(
    microdata: [StructuredValue] = [], jsonLD: [StructuredValue] = [], problems: [String] = []
  ) {
    self.microdata = microdata
    self.jsonLD = jsonLD
    self.problems = problems
  }

  public var isEmpty: Bool { microdata.isEmpty && jsonLD.isEmpty }

  /// `{"microdata": [...], "json-ld": [...]}`, the shape of expected/html.jsonl.
  public var value: StructuredValue {
    .object(["microdata": .array(microdata), "json-ld": .array(jsonLD)])
  }
}
