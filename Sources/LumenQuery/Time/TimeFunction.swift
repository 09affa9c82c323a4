/// The `$time.…` functions of the Spotlight query language and the unit of their offset.
enum TimeFunction: String, CaseIterable, Sendable {
  /// `$time.now(N)`: now, N seconds later.
  case now
  /// `$time.today(N)`: local midnight today, N days later.
  case today
  /// `$time.yesterday(N)`: local midnight yesterday, N days later.
  case yesterday
  /// `$time.this_week(N)`: the start of this week (the calendar's first weekday), N weeks later.
  case thisWeek = "this_week"
  /// `$time.last_week(N)`: the start of last week, N weeks later.
  case lastWeek = "last_week"
  /// `$time.this_month(N)`: the first day of this month, N months later.
  case thisMonth = "this_month"
  /// `$time.this_year(N)`: January 1st of this year, N years later.
  case thisYear = "this_year"
  /// `$time.iso(ISO-8601)`: an explicit date.
  case iso

  /// What one step of the offset means, for error messages.
  var offsetUnit: String {
    switch self {
    case .now: "seconds"
    case .today, .yesterday: "days"
    case .thisWeek, .lastWeek: "weeks"
    case .thisMonth: "months"
    case .thisYear: "years"
    case .iso: ""
    }
  }

  /// The largest offset accepted: about ten thousand years in every unit, far beyond any real
  /// query and well inside what calendar arithmetic handles.
  var offsetLimit: Double {
    switch self {
    case .now: 3.2e11
    case .today, .yesterday: 3_660_000
    case .thisWeek, .lastWeek: 522_000
    case .thisMonth: 120_000
    case .thisYear: 10_000
    case .iso: 0
    }
  }
}
