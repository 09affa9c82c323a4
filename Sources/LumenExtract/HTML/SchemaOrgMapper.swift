import LumenModel

/// Turns structured-data items into attributes: the well-known schema.org properties into Core
/// Spotlight's (authors, event dates, place and address, coordinates), the types found into
/// `schemaTypes`, and every property into a dotted custom key so that nothing is lost.
struct SchemaOrgMapper {
  /// Bounds for hostile or enormous pages: keys per page, values per key, bytes per value, depth.
  static let maxKeys = 512
  static let maxValuesPerKey = 64
  static let maxValueBytes = 4096
  static let maxPathDepth = 8

  static let placeTypes: Set<String> = [
    "Place", "LocalBusiness", "Restaurant", "Hotel", "Store", "Museum", "Park", "Landmark",
    "TouristAttraction", "CivicStructure", "EventVenue", "MusicVenue", "StadiumOrArena",
    "Accommodation", "LodgingBusiness", "FoodEstablishment", "Residence", "City", "Country",
  ]

  private(set) var attributes = AttributeSet()
  private(set) var problems: [String] = []
  private var keyCount = 0
  private var types: [String] = []
  private var authors: [String] = []
  private var eventLocation: SchemaNode?
  private var eventPlaceName: String?
  private var firstPlace: SchemaNode?
  private var firstAddress: SchemaNode?
  private var firstGeo: (Double, Double)?
  private var startDate: String?
  private var endDate: String?

  mutating func map(_ roots: [SchemaNode]) {
    for root in roots {
      let typeName = root.types.first ?? (root.isSchemaOrg ? "Thing" : nil)
      collectKeys(root, path: [root.vocabulary] + (typeName.map { [$0] } ?? []))
    }
    // Well-known properties, from every item at any depth, in document order.
    var queue = roots[...]
    var visited = 0
    while let node = queue.popFirst(), visited < 100_000 {
      visited += 1
      inspect(node)
      for property in node.properties {
        for case .node(let child) in property.values { queue.append(child) }
      }
    }
    finish()
  }

  private mutating func inspect(_ node: SchemaNode) {
    if node.isSchemaOrg {
      for type in node.types where !types.contains(type) { types.append(type) }
    }
    if node.isSchemaOrg || node.vocabulary == "microdata" {
      for value in node.values("author") {
        switch value {
        case .text(let text): authors.append(text)
        case .node(let person): authors += person.texts("name")
        }
      }
    }
    guard node.isSchemaOrg else { return }
    if node.types.contains(where: { $0.hasSuffix("Event") }) {
      startDate = startDate ?? node.texts("startDate").first
      endDate = endDate ?? node.texts("endDate").first
      if eventLocation == nil, eventPlaceName == nil {
        if let place = node.nodes("location").first {
          eventLocation = place
        } else if let name = node.texts("location").first {
          eventPlaceName = name
        }
      }
    }
    if firstPlace == nil, node.types.contains(where: Self.placeTypes.contains) { firstPlace = node }
    if firstAddress == nil, node.hasType("PostalAddress") { firstAddress = node }
    if firstGeo == nil, node.hasType("GeoCoordinates") || !node.texts("latitude").isEmpty,
      let latitude = node.texts("latitude").first.flatMap({ Double($0.trimmingWhitespace()) }),
      let longitude = node.texts("longitude").first.flatMap({ Double($0.trimmingWhitespace()) }),
      (-90...90).contains(latitude), (-180...180).contains(longitude)
    {
      firstGeo = (latitude, longitude)
    }
  }

  private mutating func finish() {
    func set(_ text: String?, _ key: AttributeKey) {
      if let text = text?.trimmingWhitespace(), !text.isEmpty {
        attributes.set(.text(text), for: key)
      }
    }
    if !types.isEmpty { attributes.set(types.map(AttributeValue.text), for: .schemaTypes) }
    let names = authors.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
    if !names.isEmpty { attributes.set(names.map(AttributeValue.text), for: .authors) }
    if let date = startDate.flatMap({ ISO8601Dates.parse($0) }) {
      attributes.set(.date(date), for: .startDate)
    }
    if let date = endDate.flatMap({ ISO8601Dates.parse($0) }) {
      attributes.set(.date(date), for: .endDate)
    }
    let place = eventLocation ?? firstPlace
    set(place?.label("name") ?? eventPlaceName, .namedLocation)
    let address = place?.nodes("address").first ?? firstAddress
    if let address {
      set(address.label("streetAddress"), .thoroughfare)
      set(address.label("addressLocality"), .city)
      set(address.label("addressRegion"), .stateOrProvince)
      set(address.label("postalCode"), .postalCode)
      set(address.label("addressCountry"), .country)
      let parts = [
        "streetAddress", "postalCode", "addressLocality", "addressRegion", "addressCountry",
      ]
      .compactMap { address.label($0) }
      if !parts.isEmpty { set(parts.joined(separator: ", "), .fullyFormattedAddress) }
    } else if let text = place?.texts("address").first {
      set(text, .fullyFormattedAddress)
    }
    if let geo = place?.nodes("geo").first,
      let latitude = geo.texts("latitude").first.flatMap({ Double($0.trimmingWhitespace()) }),
      let longitude = geo.texts("longitude").first.flatMap({ Double($0.trimmingWhitespace()) })
    {
      firstGeo = (latitude, longitude)
    }
    if let (latitude, longitude) = firstGeo {
      attributes.set(.number(latitude), for: .latitude)
      attributes.set(.number(longitude), for: .longitude)
    }
  }

  /// Every text value under `vocabulary.Type.property.property…`. Breadth-first, depth-bounded.
  private mutating func collectKeys(_ root: SchemaNode, path: [String]) {
    // First in, first out, so values sharing a key keep document order.
    var queue: [(node: SchemaNode, path: [String])] = [(root, path)]
    var next = 0
    while next < queue.count {
      let (node, path) = queue[next]
      next += 1
      for property in node.properties {
        let propertyPath = path + [property.name]
        for value in property.values {
          switch value {
          case .text(let text):
            addValue(text, path: propertyPath)
          case .node(let child):
            if propertyPath.count < Self.maxPathDepth {
              queue.append((child, propertyPath))
            }
          }
        }
      }
    }
  }

  private mutating func addValue(_ text: String, path: [String]) {
    let trimmed = text.trimmingWhitespace()
    guard !trimmed.isEmpty, let key = DottedKey.key(path) else { return }
    let existing = attributes[key]?.count ?? 0
    if existing == 0 {
      guard keyCount < Self.maxKeys else {
        if keyCount == Self.maxKeys {
          problems.append(
            "structured data: more than \(Self.maxKeys) properties; the rest are not indexed")
          keyCount += 1
        }
        return
      }
      keyCount += 1
    }
    guard existing < Self.maxValuesPerKey else { return }
    attributes.append(.text(TextBudget.prefix(of: trimmed, maxBytes: Self.maxValueBytes)), for: key)
  }
}
