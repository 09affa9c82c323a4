import Foundation
import Testing

@testable import LumenModel

@Suite struct AttributeSetTests {
  @Test func valuesAreConvertedToTheKeysType() {
    var set = AttributeSet()
    set.set(.text("12"), for: .pageCount)
    set.set(.text("2024-01-02T03:04:05Z"), for: .contentCreationDate)
    set.set(.number(1), for: .flashOn)
    set.set(.text("not a number"), for: .fNumber)
    #expect(set.first(.pageCount) == .number(12))
    #expect(set.first(.contentCreationDate)?.date == ISO8601Dates.parse("2024-01-02T03:04:05Z"))
    #expect(set.first(.flashOn) == .bool(true))
    #expect(set[.fNumber] == nil)
    #expect(set.removals.contains("fNumber"))
  }

  @Test func singleValuedKeepsOneMultiValuedKeepsDistinctInOrder() {
    var set = AttributeSet()
    set.set([.text("a"), .text("b")], for: .title)
    set.set([.text("Knuth"), .text("Lamport"), .text("Knuth")], for: .authors)
    #expect(set[.title] == [.text("a")])
    #expect(set[.authors] == [.text("Knuth"), .text("Lamport")])
  }

  @Test func mergingReplacesMentionedAndDeletesRemoved() {
    var base = AttributeSet()
    base.set(.text("Old"), for: .title)
    base.set(.number(3), for: .pageCount)
    base.set(.text("keep"), for: .comment)
    var update = AttributeSet()
    update.set(.text("New"), for: .title)
    update.set(nil as AttributeValue?, for: .pageCount)
    let merged = base.merging(update)
    #expect(merged.text(.title) == "New")
    #expect(merged[.pageCount] == nil)
    #expect(merged.text(.comment) == "keep")
    #expect(merged.removals.isEmpty)
  }

  @Test(arguments: [
    ("2024-03-15T10:30:00Z", 732_191_400.0),
    ("2024-03-15T10:30:00+02:00", 732_184_200.0),
    ("2024-03-15T10:30:00.250Z", 732_191_400.25),
    ("2001-01-01", 0.0),
    ("2001:01:01 00:00:10", 10.0),
  ])
  func isoDatesParse(text: String, referenceSeconds: Double) throws {
    let date = try #require(ISO8601Dates.parse(text, timeZone: TimeZone(secondsFromGMT: 0)!))
    #expect(abs(date.timeIntervalSinceReferenceDate - referenceSeconds) < 0.001)
  }

  @Test(arguments: ["", "2024-13-01", "2024-02-01T25:00", "yesterday", "2024-01-01T10:00:00Zjunk"])
  func malformedDatesAreRejected(text: String) {
    #expect(ISO8601Dates.parse(text) == nil)
  }
}

@Suite struct ISO8601FormattingTests {
  @Test(arguments: [
    (0.0, "2001-01-01T00:00:00Z"), (0.25, "2001-01-01T00:00:00.250Z"),
    (732_191_400.0, "2024-03-15T10:30:00Z"),
  ])
  func datesFormatInUTCWithFractionOnlyWhenPresent(seconds: Double, text: String) {
    #expect(ISO8601Dates.format(Date(timeIntervalSinceReferenceDate: seconds)) == text)
  }
}
