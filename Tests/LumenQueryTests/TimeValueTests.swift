import Foundation
import LumenModel
import Testing

@testable import LumenQuery

/// `$time` values against a pinned clock. Expected instants are written in UTC; the comments
/// give the Paris wall-clock time they stand for.
@Suite struct TimeValueTests {
  /// Now = Friday 2024-03-15 10:30 in Paris (UTC+1); summer time starts 2024-03-31 (UTC+2).
  /// Weeks start on Monday.
  static let midMarch: [(String, String)] = [
    ("$time.now", "2024-03-15T09:30:00Z"),
    ("$time.now(-3600)", "2024-03-15T08:30:00Z"),
    ("$time.now(1.5)", "2024-03-15T09:30:01.5Z"),
    ("$time.now()", "2024-03-15T09:30:00Z"),
    ("$time.today", "2024-03-14T23:00:00Z"),  // 15 Mar 00:00
    ("$time.today(0)", "2024-03-14T23:00:00Z"),
    ("$time.today(-10)", "2024-03-04T23:00:00Z"),  // 5 Mar
    ("$time.today(+1)", "2024-03-15T23:00:00Z"),  // 16 Mar
    ("$time.today(17)", "2024-03-31T22:00:00Z"),  // 1 Apr 00:00, summer time
    ("$time.today(-15)", "2024-02-28T23:00:00Z"),  // 29 Feb (leap year)
    ("$time.yesterday", "2024-03-13T23:00:00Z"),  // 14 Mar
    ("$time.yesterday(-1)", "2024-03-12T23:00:00Z"),
    ("$time.this_week", "2024-03-10T23:00:00Z"),  // Mon 11 Mar
    ("$time.this_week(-1)", "2024-03-03T23:00:00Z"),  // Mon 4 Mar
    ("$time.this_week(3)", "2024-03-31T22:00:00Z"),  // Mon 1 Apr, summer time
    ("$time.last_week", "2024-03-03T23:00:00Z"),
    ("$time.last_week(-1)", "2024-02-25T23:00:00Z"),  // Mon 26 Feb
    ("$time.this_month", "2024-02-29T23:00:00Z"),  // 1 Mar
    ("$time.this_month(1)", "2024-03-31T22:00:00Z"),  // 1 Apr
    ("$time.this_month(-3)", "2023-11-30T23:00:00Z"),  // 1 Dec 2023
    ("$time.this_month(10)", "2024-12-31T23:00:00Z"),  // 1 Jan 2025
    ("$time.this_month(-14)", "2022-12-31T23:00:00Z"),  // 1 Jan 2023
    ("$time.this_year", "2023-12-31T23:00:00Z"),  // 1 Jan 2024
    ("$time.this_year(-1)", "2022-12-31T23:00:00Z"),
    ("$time.this_year(1)", "2024-12-31T23:00:00Z"),
    ("$time.iso(2024-01-01T00:00:00Z)", "2024-01-01T00:00:00Z"),
    ("$time.iso('2024-01-01')", "2023-12-31T23:00:00Z"),  // zoneless: Paris midnight
    ("$time.iso(\"2024-07-01T08:00:00\")", "2024-07-01T06:00:00Z"),  // Paris summer time
    ("$time.iso(2024-07-01T08:00:00.250+05:30)", "2024-07-01T02:30:00.25Z"),
  ]

  @Test(arguments: midMarch)
  func resolvesInParis(_ variable: String, _ expected: String) throws {
    let query = try parisParser.parse("contentCreationDate == \(variable)")
    #expect(query == compare(.contentCreationDate, .equal, .date(date(expected))))
  }

  /// Now = Thursday 2025-01-02 12:00 in Paris: weeks, months and years cross the year boundary.
  static let newYear: [(String, Int, String)] = [
    ("$time.yesterday", 2, "2024-12-31T23:00:00Z"),  // 1 Jan 2025
    ("$time.today(-2)", 2, "2024-12-30T23:00:00Z"),
    ("$time.this_week", 2, "2024-12-29T23:00:00Z"),  // Mon 30 Dec 2024
    ("$time.last_week", 2, "2024-12-22T23:00:00Z"),  // Mon 23 Dec 2024
    ("$time.this_week", 1, "2024-12-28T23:00:00Z"),  // Sun 29 Dec 2024, weeks on Sunday
    ("$time.last_week", 1, "2024-12-21T23:00:00Z"),  // Sun 22 Dec 2024
    ("$time.this_week", 7, "2024-12-27T23:00:00Z"),  // Sat 28 Dec 2024, weeks on Saturday
    ("$time.this_week", 5, "2025-01-01T23:00:00Z"),  // Thu 2 Jan: today is the first weekday
    ("$time.this_month", 2, "2024-12-31T23:00:00Z"),  // 1 Jan 2025
    ("$time.this_month(-1)", 2, "2024-11-30T23:00:00Z"),  // 1 Dec 2024
    ("$time.this_month(-13)", 2, "2023-11-30T23:00:00Z"),  // 1 Dec 2023
    ("$time.this_year", 2, "2024-12-31T23:00:00Z"),
    ("$time.this_year(-1)", 2, "2023-12-31T23:00:00Z"),
  ]

  @Test(arguments: newYear)
  func resolvesAcrossTheYear(_ variable: String, _ firstWeekday: Int, _ expected: String) throws {
    let parser = QueryParser(
      now: date("2025-01-02T11:00:00Z"), timeZone: paris, firstWeekday: firstWeekday)
    let query = try parser.parse("contentCreationDate == \(variable)")
    #expect(query == compare(.contentCreationDate, .equal, .date(date(expected))))
  }

  /// São Paulo, 4 November 2018: summer time began at midnight, so the day started at 01:00.
  @Test func todayWhenMidnightDoesNotExist() throws {
    let parser = QueryParser(
      now: date("2018-11-04T17:00:00Z"), timeZone: TimeZone(identifier: "America/Sao_Paulo")!)
    #expect(
      try parser.parse("contentCreationDate >= $time.today")
        == compare(.contentCreationDate, .greaterOrEqual, .date(date("2018-11-04T03:00:00Z"))))
    #expect(
      try parser.parse("contentCreationDate >= $time.today(1)")
        == compare(.contentCreationDate, .greaterOrEqual, .date(date("2018-11-05T02:00:00Z"))))
  }

  @Test func extremeOffsetsStayInRange() throws {
    for variable in [
      "$time.now(320000000000)", "$time.today(-3660000)", "$time.this_week(522000)",
      "$time.last_week(-522000)", "$time.this_month(120000)", "$time.this_year(-10000)",
    ] {
      let query = try parisParser.parse("contentCreationDate < \(variable)")
      guard case .comparison(let comparison) = query, case .date = comparison.value else {
        Issue.record("\(variable) did not give a date")
        continue
      }
    }
  }

  @Test func invalidFirstWeekdayFallsBackToSunday() throws {
    let parser = QueryParser(now: date("2024-03-15T09:30:00Z"), timeZone: paris, firstWeekday: 0)
    #expect(
      try parser.parse("contentCreationDate == $time.this_week")
        == compare(.contentCreationDate, .equal, .date(date("2024-03-09T23:00:00Z"))))
  }
}
