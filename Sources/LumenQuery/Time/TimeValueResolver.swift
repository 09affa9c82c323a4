import Foundation

/// Turns `$time` functions into dates at parse time, against an injected "now", time zone and
/// first weekday, so a query means the same thing in every process that compiles it and tests
/// can pin the clock.
///
/// Day-based values are local midnights: each is computed by moving a local *noon* by whole
/// calendar units and then taking the start of that day, so daylight-saving shifts (and zones
/// that skip midnight) never push a result onto the wrong day.
struct TimeValueResolver: Sendable {
  let now: Date
  let calendar: Calendar

  init(now: Date, timeZone: TimeZone, firstWeekday: Int) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    calendar.firstWeekday = (1...7).contains(firstWeekday) ? firstWeekday : 1
    self.now = now
    self.calendar = calendar
  }

  /// The date of `function` moved by `offset` of its unit (whole for every unit but seconds);
  /// nil when the calendar cannot represent it.
  func date(_ function: TimeFunction, offset: Double) -> Date? {
    guard let whole = Int(exactly: offset.rounded(.towardZero)) else { return nil }
    switch function {
    case .now: return now.addingTimeInterval(offset)
    case .today: return startOfDay(daysFromToday: whole)
    case .yesterday: return startOfDay(daysFromToday: whole - 1)
    case .thisWeek: return startOfWeek(weeksFromThisWeek: whole)
    case .lastWeek: return startOfWeek(weeksFromThisWeek: whole - 1)
    case .thisMonth: return firstDay(yearOffset: 0, monthOffset: whole, wholeYear: false)
    case .thisYear: return firstDay(yearOffset: whole, monthOffset: 0, wholeYear: true)
    case .iso: return nil
    }
  }

  private func startOfDay(daysFromToday days: Int) -> Date? {
    let today = calendar.dateComponents([.year, .month, .day], from: now)
    guard let year = today.year, let month = today.month, let day = today.day else { return nil }
    return midnight(moving: .day, by: days, fromNoonOf: year, month, day)
  }

  private func startOfWeek(weeksFromThisWeek weeks: Int) -> Date? {
    let weekday = calendar.component(.weekday, from: now)
    let daysSinceWeekStart = (weekday - calendar.firstWeekday + 7) % 7
    return startOfDay(daysFromToday: 7 * weeks - daysSinceWeekStart)
  }

  private func firstDay(yearOffset: Int, monthOffset: Int, wholeYear: Bool) -> Date? {
    let today = calendar.dateComponents([.year, .month], from: now)
    guard let year = today.year, let month = today.month else { return nil }
    if wholeYear { return midnight(moving: .year, by: yearOffset, fromNoonOf: year, 1, 1) }
    return midnight(moving: .month, by: monthOffset, fromNoonOf: year, month, 1)
  }

  /// The start of the day reached by moving local noon of `year-month-day` by `amount` units.
  private func midnight(
    moving unit: Calendar.Component, by amount: Int, fromNoonOf year: Int, _ month: Int,
    _ day: Int
  ) -> Date? {
    var components = DateComponents()
    components.year = year
    components.month = month
    components.day = day
    components.hour = 12
    guard let noon = calendar.date(from: components),
      let moved = calendar.date(byAdding: unit, value: amount, to: noon)
    else { return nil }
    return calendar.startOfDay(for: moved)
  }
}
