import LumenExtract

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
