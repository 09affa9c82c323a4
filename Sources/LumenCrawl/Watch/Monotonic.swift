import Glibc

/// Nanoseconds on the monotonic clock: the watcher's timers (settle delays, commit deadlines,
/// move pairing) must not jump when the wall clock is set.
enum Monotonic {
  static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }

  static func nanos(_ duration: Duration) -> UInt64 {
    let (seconds, attoseconds) = duration.components
    return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
  }
}
