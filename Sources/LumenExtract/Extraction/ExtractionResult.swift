import LumenModel

/// What running the rule chain on one file gave: the outcome of the first extractor that
/// succeeded, with the rule that chose it and the extractor's identity, and every failure
/// before it. Codable (attributes included) so it can come back from a worker process.
public struct ExtractionResult: Sendable, Equatable {
  /// Nil when no rule matched or every matching rule's extractor failed.
  public var outcome: ExtractionOutcome?
  /// The rule whose extractor produced `outcome`.
  public var rule: ExtractionRule?
  public var extractor: ExtractorIdentity?
  /// The job's content type, or the first matching rule's `ContentType=` when the job had none.
  public var contentType: String?
  /// The rules that matched the MIME type, in the order they were tried.
  public var candidates: [RuleSource]
  /// Extractors that gave nothing, in the order they were tried.
  public var failures: [ExtractionFailure]
  public var elapsedSeconds: Double

  public init(
    outcome: ExtractionOutcome? = nil, rule: ExtractionRule? = nil,
    extractor: ExtractorIdentity? = nil, contentType: String? = nil,
    candidates: [RuleSource] = [], failures: [ExtractionFailure] = [], elapsedSeconds: Double = 0
  ) {
    self.outcome = outcome
    self.rule = rule
    self.extractor = extractor
    self.contentType = contentType
    self.candidates = candidates
    self.failures = failures
    self.elapsedSeconds = elapsedSeconds
  }

  public var succeeded: Bool { outcome != nil }
}

extension ExtractionResult: Codable {
  private enum CodingKeys: String, CodingKey {
    case attributes, problems, rule, extractor, contentType, candidates, failures, elapsedSeconds
  }

  /// One attribute on the wire: a built-in attribute by its name, a custom one by its whole
  /// registry row (so custom keys survive), and its values. Built-ins go by name because the
  /// row is ten fields of JSON that every result would otherwise carry for every attribute.
  private struct Attribute: Codable {
    let key: AttributeKey
    let values: [AttributeValue]

    private enum CodingKeys: String, CodingKey { case name, key, values }

    init(key: AttributeKey, values: [AttributeValue]) {
      self.key = key
      self.values = values
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      if !key.isCustom, AttributeRegistry.builtIn.key(named: key.name) == key {
        try container.encode(key.name, forKey: .name)
      } else {
        try container.encode(key, forKey: .key)
      }
      try container.encode(values, forKey: .values)
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      if let key = try container.decodeIfPresent(AttributeKey.self, forKey: .key) {
        self.key = key
      } else {
        let name = try container.decode(String.self, forKey: .name)
        guard let key = AttributeRegistry.builtIn.key(named: name) else {
          throw DecodingError.dataCorruptedError(
            forKey: .name, in: container, debugDescription: "no built-in attribute '\(name)'")
        }
        self.key = key
      }
      values = try container.decode([AttributeValue].self, forKey: .values)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    if let outcome {
      let attributes = outcome.attributes.orderedKeys.map {
        Attribute(key: $0, values: outcome.attributes[$0] ?? [])
      }
      try container.encode(attributes, forKey: .attributes)
      try container.encode(outcome.problems, forKey: .problems)
    }
    try container.encodeIfPresent(rule, forKey: .rule)
    try container.encodeIfPresent(extractor, forKey: .extractor)
    try container.encodeIfPresent(contentType, forKey: .contentType)
    try container.encode(candidates, forKey: .candidates)
    try container.encode(failures, forKey: .failures)
    try container.encode(elapsedSeconds, forKey: .elapsedSeconds)
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    if let attributes = try container.decodeIfPresent([Attribute].self, forKey: .attributes) {
      var set = AttributeSet()
      for attribute in attributes { set.set(attribute.values, for: attribute.key) }
      outcome = ExtractionOutcome(
        attributes: set,
        problems: try container.decodeIfPresent([String].self, forKey: .problems) ?? [])
    } else {
      outcome = nil
    }
    rule = try container.decodeIfPresent(ExtractionRule.self, forKey: .rule)
    extractor = try container.decodeIfPresent(ExtractorIdentity.self, forKey: .extractor)
    contentType = try container.decodeIfPresent(String.self, forKey: .contentType)
    candidates = try container.decode([RuleSource].self, forKey: .candidates)
    failures = try container.decode([ExtractionFailure].self, forKey: .failures)
    elapsedSeconds = try container.decode(Double.self, forKey: .elapsedSeconds)
  }
}
