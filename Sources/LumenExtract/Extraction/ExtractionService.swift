/// Runs the rule chain for one file, in this process: the rules matching its MIME type are
/// tried in order, each extractor with its rule's limits, until one succeeds. This is what
/// `lumen extract FILE` and the crawl pipeline call; the job and result are Codable so the call
/// can move into worker processes, which is also where `Timeout=` becomes a hard limit (a
/// thread cannot be stopped from outside, a process can). Here an extractor that overruns its
/// timeout keeps its result and gets a recorded problem; a worker learns through `willRun`
/// which extractor is about to start, to arm that rule's deadline and memory cap.
public struct ExtractionService: Sendable {
  public let rules: RuleSet
  public let catalog: ExtractorCatalog

  public init(rules: RuleSet, catalog: ExtractorCatalog = .standard) {
    self.rules = rules
    self.catalog = catalog
  }

  /// Whether some rule names an extractor this build has: without one, no file is read.
  public var hasExtractors: Bool {
    rules.rules.contains { catalog.version(of: $0.extractor) != nil }
  }

  public func extract(
    _ job: ExtractionJob, willRun: (ExtractionRule, ExtractorIdentity) -> Void = { _, _ in }
  ) -> ExtractionResult {
    let clock = ContinuousClock()
    let start = clock.now
    let matching = rules.rules(forMIME: job.mimeType)
    var result = ExtractionResult(candidates: matching.map(\.source))
    let known = job.contentType.flatMap { $0 == "public.data" || $0.isEmpty ? nil : $0 }
    result.contentType = known ?? matching.lazy.compactMap(\.contentType).first ?? job.contentType

    for rule in matching {
      guard let type = catalog.type(named: rule.extractor) else { continue }
      let identity = ExtractorIdentity(type)
      let request = ExtractionRequest(
        path: job.path, mimeType: job.mimeType, contentType: result.contentType ?? "public.data",
        limits: rule.limits)
      willRun(rule, identity)
      let began = clock.now
      do {
        var outcome = try type.init().extract(request)
        let seconds = Self.seconds(clock.now - began)
        if seconds > rule.limits.timeoutSeconds {
          outcome.problems.append(
            "took \(Self.format(seconds)) s, over the rule's Timeout=\(Self.format(rule.limits.timeoutSeconds))"
          )
        }
        result.outcome = outcome
        result.rule = rule
        result.extractor = identity
        break
      } catch {
        result.failures.append(
          ExtractionFailure(rule: rule.source, extractor: identity, error: error))
      }
    }
    result.elapsedSeconds = Self.seconds(clock.now - start)
    return result
  }

  private static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }

  private static func format(_ seconds: Double) -> String {
    String(Double((seconds * 100).rounded()) / 100)
  }
}
