import Foundation
import LumenModel
import Testing

@testable import LumenExtract

/// HTML structured data against extruct 0.18 (expected/html.jsonl), item by item, and the
/// Core Spotlight attributes derived from it.
@Suite struct HTMLExtractorTests {
  static let files = Corpus.files(in: "html", extensions: ["html"])
  static var oracle: [String: [String: Any]] { Corpus.expected("html") }

  /// Accepted disagreements with extruct, and why Lumen differs.
  static let allowed: [String: [String: String]] = [:]

  static func structuredData(_ file: String) throws -> StructuredData {
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Corpus.path(file))))
    return HTMLExtractor.structuredData(in: bytes)
  }

  static func extract(_ file: String, limits: ExtractionLimits = ExtractionLimits()) throws
    -> ExtractionOutcome
  {
    try HTMLExtractor().extract(Corpus.request(file, mimeType: "text/html", limits: limits))
  }

  static func expectedItems(_ file: String, _ syntax: String) -> [StructuredValue] {
    ((oracle[file]?[syntax] as? [Any]) ?? []).map(StructuredValue.init(json:))
  }

  static func compare(_ file: String, into agreement: inout Agreement) throws {
    let data = try structuredData(file)
    for (syntax, actual) in [("microdata", data.microdata), ("json-ld", data.jsonLD)] {
      let expected = expectedItems(file, syntax)
      let same =
        expected.count == actual.count
        && zip(expected, actual).allSatisfy(StructuredComparison.equal)
      if !expected.isEmpty || !actual.isEmpty {
        agreement.record(
          file: file, field: "\(syntax) items (all equal)", expected: "\(expected.count) items",
          actual: same ? "\(actual.count) items" : "\(actual)", agrees: same)
      }
      let (agreed, total) = StructuredComparison.leafAgreement(expected, actual)
      for index in 0..<total {
        agreement.record(
          file: file, field: "\(syntax) leaf values", expected: "leaf", actual: "leaf",
          agrees: index < agreed)
      }
    }
  }

  @Test(arguments: files)
  func agreesWithExtruct(_ file: String) throws {
    var agreement = Agreement(allowed: Self.allowed)
    try Self.compare(file, into: &agreement)
    for disagreement in agreement.unexplained {
      Issue.record(
        "\(disagreement.file) \(disagreement.field)\nextruct: \(Self.expectedItems(file, disagreement.field.hasPrefix("micro") ? "microdata" : "json-ld"))\nLumen:   \(disagreement.actual)"
      )
    }
  }

  /// Values read from extruct's items by path (`properties` is stepped through for microdata),
  /// arrays flattened, numbers as Lumen prints them.
  static func oracleValues(_ file: String, _ syntax: String, _ path: [String]) -> [String] {
    var current = expectedItems(file, syntax)
    for key in path {
      current = current.flatMap { value -> [StructuredValue] in
        let container = value["properties"] ?? value
        return container[key]?.asList ?? []
      }
    }
    return current.compactMap { value in
      switch value {
      case .string(let text): text
      case .number(let number): AttributeValue.format(number)
      default: nil
      }
    }
  }

  /// Core Spotlight attributes mapped from structured data, each checked against the value at a
  /// path in extruct's output for the same file.
  @Test(arguments: [
    (
      "html/extruct-songkick-tovestyrke.html", "json-ld",
      ["location", "address", "addressLocality"], AttributeKey.city
    ),
    (
      "html/extruct-songkick-tovestyrke.html", "json-ld",
      ["location", "address", "addressCountry"], .country
    ),
    (
      "html/extruct-songkick-tovestyrke.html", "json-ld", ["location", "address", "postalCode"],
      .postalCode
    ),
    (
      "html/extruct-songkick-tovestyrke.html", "json-ld", ["location", "address", "streetAddress"],
      .thoroughfare
    ),
    ("html/extruct-songkick-tovestyrke.html", "json-ld", ["location", "name"], .namedLocation),
    (
      "html/extruct-songkick-tovestyrke.html", "json-ld", ["location", "geo", "latitude"], .latitude
    ),
    (
      "html/extruct-songkick-tovestyrke.html", "json-ld", ["location", "geo", "longitude"],
      .longitude
    ),
    (
      "html/extruct-LocalBusiness.002.html", "microdata", ["address", "streetAddress"],
      .thoroughfare
    ),
    ("html/extruct-LocalBusiness.002.html", "microdata", ["address", "addressLocality"], .city),
    (
      "html/extruct-LocalBusiness.002.html", "microdata", ["address", "addressRegion"],
      .stateOrProvince
    ),
    ("html/extruct-LocalBusiness.002.html", "microdata", ["name"], .namedLocation),
    ("html/schemaorg-eg-0005-microdata.html", "microdata", ["geo", "latitude"], .latitude),
    ("html/schemaorg-eg-0005-jsonld.html", "json-ld", ["geo", "longitude"], .longitude),
    ("html/schemaorg-eg-0005-jsonld.html", "json-ld", ["name"], .namedLocation),
    ("html/schemaorg-eg-0189-microdata.html", "microdata", ["location", "name"], .namedLocation),
    (
      "html/schemaorg-eg-0189-jsonld.html", "json-ld", ["location", "address"],
      .fullyFormattedAddress
    ),
    ("html/edsu-multiple-props.html", "microdata", ["author", "name"], .authors),
    (
      "html/extruct-Event.001.html", "microdata", ["location", "address", "addressLocality"], .city
    ),
  ])
  func wellKnownAttributeMatchesExtruct(
    _ file: String, _ syntax: String, _ path: [String], _ key: AttributeKey
  ) throws {
    let expected = Self.oracleValues(file, syntax, path)
    try #require(!expected.isEmpty)
    let actual = try Self.extract(file).attributes[key]?.map(\.description)
    if key.isMultiValued {
      #expect(actual == expected)
    } else {
      #expect(actual == [expected[0]])
    }
  }

  /// Event dates are read from the oracle's string with Lumen's ISO parser: zone offsets such
  /// as `+0100` must land on the same instant.
  @Test(arguments: [
    ("html/extruct-songkick-tovestyrke.html", "json-ld"),
    ("html/extruct-Event.001.html", "microdata"),
    ("html/schemaorg-eg-0189-jsonld.html", "json-ld"),
  ])
  func eventStartDateMatchesExtruct(_ file: String, _ syntax: String) throws {
    let raw = try #require(Self.oracleValues(file, syntax, ["startDate"]).first)
    let expected = try #require(ISO8601Dates.parse(raw))
    #expect(try Self.extract(file).attributes.first(.startDate)?.date == expected)
  }

  /// schema.org's examples state the same data in microdata and in JSON-LD; both syntaxes must
  /// map to the same Core Spotlight attributes.
  @Test(arguments: ["0001", "0005", "0189", "0461"])
  func microdataAndJSONLDMapAlike(_ example: String) throws {
    let microdata = try Self.extract("html/schemaorg-eg-\(example)-microdata.html").attributes
    let jsonLD = try Self.extract("html/schemaorg-eg-\(example)-jsonld.html").attributes
    let keys: [AttributeKey] = [
      .schemaTypes, .authors, .startDate, .namedLocation, .city, .stateOrProvince, .postalCode,
      .latitude, .longitude,
    ]
    for key in keys {
      #expect(microdata[key] == jsonLD[key], "\(key.name)")
    }
    #expect(microdata[.schemaTypes] != nil)
  }

  @Test func everyPropertyIsKeptUnderADottedName() throws {
    let attributes = try Self.extract("html/extruct-songkick-tovestyrke.html").attributes
    let city = try AttributeKey.custom(
      "schema.MusicEvent.location.address.addressLocality", valueType: .text, multiValued: true)
    #expect(attributes[city] == [.text("London")])
    let performers = try AttributeKey.custom(
      "schema.MusicEvent.performer.name", valueType: .text, multiValued: true)
    #expect(attributes[performers] == [.text("Tove Styrke"), .text("Geowulf")])
    #expect(attributes[.schemaTypes]?.contains(.text("GeoCoordinates")) == true)
  }

  @Test func otherVocabulariesGetASanitizedPrefix() throws {
    let attributes = try Self.extract("html/extruct-w3c-microdata.5.5.html").attributes
    let title = try AttributeKey.custom(
      "n_whatwg_org.work.title", valueType: .text, multiValued: true)
    #expect(attributes[title] == [.text("The house I found."), .text("The mailbox.")])
    #expect(attributes[.schemaTypes] == nil)
  }

  @Test func untypedItemsAndHyphenatedPropertiesStayQueryable() throws {
    let attributes = try Self.extract("html/edsu-multiple-props.html").attributes
    let color = try AttributeKey.custom(
      "microdata.favorite_color", valueType: .text, multiValued: true)
    #expect(attributes[color] == [.text("orange")])
  }

  @Test func headAndTextAreRead() throws {
    let outcome = try Self.extract("html/extruct-Event.001.html")
    #expect(outcome.attributes.text(.title) == "schmea.org -- Creative Work")
    let text = try #require(outcome.attributes.text(.textContent))
    #expect(text.contains("Wells Fargo Center\nPhiladelphia, PA"))
    #expect(!text.contains("<"))
  }

  @Test func agreementTable() throws {
    #expect(Self.files.count == 40)
    var agreement = Agreement(allowed: Self.allowed)
    for file in Self.files { try Self.compare(file, into: &agreement) }
    print(agreement.table(title: "HTML structured data vs extruct (\(Self.files.count) files)"))
    // The reader follows extruct's algorithm (and libxml2 builds the same trees lxml does):
    // every item must match.
    #expect(agreement.fields(below: 1).isEmpty, "\(agreement.fields(below: 1))")
    #expect(agreement.unexplained.isEmpty, "\(agreement.unexplained.map(\.file))")
    #expect(agreement.staleAllowances.isEmpty, "\(agreement.staleAllowances)")
  }
}
