/// Pairs `IN_MOVED_FROM` with `IN_MOVED_TO` by cookie. The kernel queues the two halves of a
/// rename together, so they nearly always arrive in one read; a departure is kept for a short
/// grace period in case a read ended between them. One still unpaired after it left the watched
/// folders (moved out of the roots): its item is deleted.
struct MovePairing {
  struct Departure: Equatable {
    var path: String
    var isDirectory: Bool
    var time: UInt64
  }

  let grace: UInt64
  private var departures: [UInt32: Departure] = [:]

  init(grace: UInt64) { self.grace = grace }

  var isEmpty: Bool { departures.isEmpty }

  mutating func depart(cookie: UInt32, _ departure: Departure) {
    departures[cookie] = departure
  }

  /// The departure a `movedTo` with this cookie completes, if it was seen.
  mutating func arrive(cookie: UInt32) -> Departure? {
    departures.removeValue(forKey: cookie)
  }

  /// When the oldest departure's grace period ends.
  var nextDeadline: UInt64? { departures.values.lazy.map { $0.time + grace }.min() }

  /// Removes and returns the departures whose grace period is over at `now`.
  mutating func expired(now: UInt64) -> [Departure] {
    let over = departures.filter { now >= $0.value.time + grace }
    for cookie in over.keys { departures[cookie] = nil }
    return over.values.sorted { $0.path < $1.path }
  }

  /// All departures, now (a queue overflow: the rescan will settle them).
  mutating func removeAll() -> [Departure] {
    defer { departures.removeAll() }
    return Array(departures.values)
  }
}
