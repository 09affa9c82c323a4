import LumenExtract

/// The first frame an extraction worker receives: the rules to apply (the indexer's, so that
/// both sides agree on every file) and how to confine itself.
struct WorkerHello: Codable, Sendable {
  var rules: [ExtractionRule]
  /// Turn off Landlock and seccomp: only for measuring what confinement costs.
  var unconfined: Bool = false
}

/// What a worker sends back.
enum WorkerMessage: Codable, Sendable {
  /// Confined and waiting for jobs.
  case ready(ConfinementReport)
  /// About to run `extractor` on the current job, with this rule's deadline in seconds: the
  /// indexer re-arms its clock, and knows whom to blame if the worker dies.
  case begin(ExtractorIdentity, timeoutSeconds: Double)
  /// The job's result.
  case result(ExtractionResult)
}
