import Synchronization

/// Counters of a walk, readable while it runs (the progress line reads them).
public final class WalkStatistics: Sendable {
  public let folders = Atomic<Int>(0)
  public let entries = Atomic<Int>(0)
  public let excluded = Atomic<Int>(0)
  public let errors = Atomic<Int>(0)

  public init() {}
}
