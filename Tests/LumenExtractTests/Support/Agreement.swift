import Foundation
import LumenModel

/// Field-by-field agreement between Lumen and an oracle, with the reasons for every accepted
/// disagreement. Printed as a table in the test output.
struct Agreement {
  struct Row {
    var compared = 0
    var agreed = 0
    var allowed = 0
  }

  struct Disagreement: CustomStringConvertible {
    let file: String
    let field: String
    let expected: String
    let actual: String
    var description: String { "\(file) \(field): oracle \(expected) ≠ Lumen \(actual)" }
  }

  private(set) var rows: [String: Row] = [:]
  private(set) var fieldOrder: [String] = []
  /// Disagreements not in the allow-list: each one fails a test.
  private(set) var unexplained: [Disagreement] = []
  /// Allow-listed entries that turned out to agree (the list must not go stale).
  private(set) var staleAllowances: [String] = []

  /// `allowed[file][field]` is the reason a disagreement is accepted.
  let allowed: [String: [String: String]]

  init(allowed: [String: [String: String]]) { self.allowed = allowed }

  /// Records one comparison; values are already rendered for printing.
  mutating func record(
    file: String, field: String, expected: String?, actual: String?, agrees: Bool
  ) {
    if expected == nil, actual == nil { return }
    if rows[field] == nil { fieldOrder.append(field) }
    rows[field, default: Row()].compared += 1
    let reason = allowed[file]?[field]
    if agrees {
      rows[field]!.agreed += 1
      if reason != nil { staleAllowances.append("\(file) \(field)") }
    } else if reason != nil {
      rows[field]!.allowed += 1
    } else {
      unexplained.append(
        Disagreement(file: file, field: field, expected: expected ?? "—", actual: actual ?? "—"))
    }
  }

  /// Fields whose raw agreement (allow-listed entries count as misses) is under `minimum`.
  func fields(below minimum: Double) -> [String] {
    fieldOrder.filter { ratio($0) < minimum }
  }

  func ratio(_ field: String) -> Double {
    guard let row = rows[field], row.compared > 0 else { return 1 }
    return Double(row.agreed) / Double(row.compared)
  }

  /// The table, one line per field: agreed / compared, and how many disagreements are explained.
  func table(title: String) -> String {
    var lines = [
      "\(title)", "field                             agree  compared  pct     allow-listed",
    ]
    for field in fieldOrder {
      let row = rows[field]!
      let pct = String(format: "%5.1f%%", ratio(field) * 100)
      lines.append(
        field.padding(toLength: 34, withPad: " ", startingAt: 0)
          + String(row.agreed).leftPadded(5) + String(row.compared).leftPadded(10) + "  " + pct
          + String(row.allowed).leftPadded(8))
    }
    return lines.joined(separator: "\n")
  }
}

extension String {
  func leftPadded(_ width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}

/// Comparison rules shared by every family: exact text after trimming, numbers within 1%,
/// dates as instants (the oracle's ISO strings read with Lumen's own ISO parser).
enum Compare {
  static func text(_ expected: Any?, _ actual: String?) -> (String?, String?, Bool) {
    let e = (expected as? String)?.trimmingCharacters(in: .whitespacesAndNewlines)
    let a = actual?.trimmingCharacters(in: .whitespacesAndNewlines)
    let eValue = e?.isEmpty == true ? nil : e
    let aValue = a?.isEmpty == true ? nil : a
    return (eValue, aValue, eValue == aValue)
  }

  static func number(_ expected: Any?, _ actual: Double?) -> (String?, String?, Bool) {
    let e = (expected as? NSNumber)?.doubleValue ?? (expected as? String).flatMap(Double.init)
    let agrees: Bool
    switch (e, actual) {
    case (nil, nil): agrees = true
    case (let e?, let a?): agrees = e == a || abs(e - a) <= abs(e) * 0.01
    default: agrees = false
    }
    return (e.map { AttributeValue.format($0) }, actual.map { AttributeValue.format($0) }, agrees)
  }

  static func date(_ expected: Any?, _ actual: Date?) -> (String?, String?, Bool) {
    let e = (expected as? String).flatMap { ISO8601Dates.parse($0) }
    let agrees: Bool
    switch (e, actual) {
    case (nil, nil): agrees = true
    case (let e?, let a?): agrees = abs(e.timeIntervalSince(a)) < 1
    default: agrees = false
    }
    return (
      (expected as? String), actual.map(ISO8601Dates.format), agrees
    )
  }

  /// Lists compare in order, each entry trimmed.
  static func list(_ expected: [String]?, _ actual: [String]?) -> (String?, String?, Bool) {
    let e = expected?.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter {
      !$0.isEmpty
    }
    let a = actual?.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter {
      !$0.isEmpty
    }
    let eValue = e?.isEmpty == true ? nil : e
    let aValue = a?.isEmpty == true ? nil : a
    return (eValue.map { "\($0)" }, aValue.map { "\($0)" }, eValue == aValue)
  }
}
