import LumenExtract

/// What a worker sends back.
enum WorkerMessage: Codable, Sendable {
  /// Confined and waiting for jobs.
  case ready(ConfinementReport)
  /// About to run a fallback `extractor` on the current job (the first matching rule's is
  /// implied by the job), with this rule's deadline in seconds: the indexer re-arms its clock,
  /// and knows whom to blame if the worker dies.
  case begin(ExtractorIdentity, timeoutSeconds: Double)
  /// The job's result.
  case result(ExtractionResult)
}
