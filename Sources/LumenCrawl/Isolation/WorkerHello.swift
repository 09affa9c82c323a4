import LumenExtract

/// The first frame an extraction worker receives: the rules to apply (the indexer's, so that
/// both sides agree on every file) and how to confine itself.
struct WorkerHello: Codable, Sendable {
  var rules: [ExtractionRule]
  /// Turn off Landlock and seccomp: only for measuring what confinement costs.
  var unconfined: Bool = false
}
