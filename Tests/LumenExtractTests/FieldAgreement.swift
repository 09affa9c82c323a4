import Foundation
import Testing

/// How one extracted field compares with an oracle over a corpus: per file, whether both agree,
/// and the disagreements with what each side said.
struct FieldAgreement: Sendable {
  enum Verdict: Sendable, Equatable {
    case agree
    /// Both have a value and they differ.
    case differ
    /// The oracle has a value, Lumen none.
    case missing
    /// Lumen has a value, the oracle none.
    case extra
  }

  struct Disagreement: Sendable, CustomStringConvertible {
    let file: String
    let verdict: Verdict
    let lumen: String
    let oracle: String
    var description: String { "\(file): \(verdict) (Lumen \(lumen), oracle \(oracle))" }
  }

  let field: String
  private(set) var agreed = 0
  private(set) var disagreements: [Disagreement] = []

  init(field: String) { self.field = field }

  var compared: Int { agreed + disagreements.count }
  var ratio: Double { compared == 0 ? 1 : Double(agreed) / Double(compared) }

  /// Records one file. Neither side having a value is not a comparison.
  mutating func record<T>(
    file: String, lumen: T?, oracle: T?, same: (T, T) -> Bool
  ) {
    switch (lumen, oracle) {
    case (nil, nil): return
    case (let l?, let o?):
      if same(l, o) {
        agreed += 1
      } else {
        disagreements.append(
          Disagreement(file: file, verdict: .differ, lumen: "\(l)", oracle: "\(o)"))
      }
    case (nil, let o?):
      disagreements.append(Disagreement(file: file, verdict: .missing, lumen: "-", oracle: "\(o)"))
    case (let l?, nil):
      disagreements.append(Disagreement(file: file, verdict: .extra, lumen: "\(l)", oracle: "-"))
    }
  }

  /// Relative tolerance, as the issue asks for numbers (1%), with an absolute floor for the
  /// fields whose resolution is coarser than that.
  static func close(_ a: Double, _ b: Double, relative: Double = 0.01, absolute: Double = 0)
    -> Bool
  {
    abs(a - b) <= max(absolute, relative * max(abs(a), abs(b)))
  }

  /// A Markdown table of the fields, for the issue note.
  static func table(_ fields: [FieldAgreement], title: String) -> String {
    var lines = [
      "\(title)", "| field | agree | compared | agreement | allow-listed |",
      "|---|---|---|---|---|",
    ]
    for field in fields {
      let percent = String(format: "%.1f%%", field.ratio * 100)
      lines.append(
        "| \(field.field) | \(field.agreed) | \(field.compared) | \(percent) | \(field.disagreements.count) |"
      )
    }
    return lines.joined(separator: "\n")
  }
}

/// The checks every oracle suite makes of its run, written once.
extension [FieldAgreement] {
  /// `field` was compared on some file, agrees at least `threshold` of the time, and every
  /// disagreement is allow-listed ("file field" keys).
  func expectAgreement(
    _ field: String, threshold: Double, allowed: [String: String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard let agreement = first(where: { $0.field == field }) else {
      Issue.record("no results for \(field)", sourceLocation: sourceLocation)
      return
    }
    #expect(agreement.compared > 0, "no file has \(field)", sourceLocation: sourceLocation)
    #expect(
      agreement.ratio >= threshold, "\(field): \(agreement.ratio)",
      sourceLocation: sourceLocation)
    for disagreement in agreement.disagreements {
      #expect(
        allowed["\(disagreement.file) \(field)"] != nil,
        "not allow-listed: \(field) \(disagreement)", sourceLocation: sourceLocation)
    }
  }

  /// Every allow-listed disagreement still happens: one that agrees now is a stale excuse.
  func expectNoStaleEntries(
    in allowed: [String: String], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let actual = Set(flatMap { field in field.disagreements.map { "\($0.file) \(field.field)" } })
    for key in allowed.keys.sorted() {
      #expect(
        actual.contains(key), "allow-listed but agrees now: \(key)",
        sourceLocation: sourceLocation)
    }
  }
}
