import Foundation

@testable import LumenExtract

/// Structural comparison of structured-data items with extruct's: objects by key, arrays in
/// order, text trimmed, numbers within 1%.
enum StructuredComparison {
  static func equal(_ a: StructuredValue, _ b: StructuredValue) -> Bool {
    switch (a, b) {
    case (.string(let x), .string(let y)):
      return x.trimmingCharacters(in: .whitespacesAndNewlines)
        == y.trimmingCharacters(in: .whitespacesAndNewlines)
    case (.number(let x), .number(let y)):
      return x == y || abs(x - y) <= abs(x) * 0.01
    case (.bool(let x), .bool(let y)):
      return x == y
    case (.null, .null):
      return true
    case (.array(let x), .array(let y)):
      return x.count == y.count && zip(x, y).allSatisfy(equal)
    case (.object(let x), .object(let y)):
      return Set(x.keys) == Set(y.keys) && x.allSatisfy { key, value in equal(value, y[key]!) }
    default:
      return false
    }
  }

  /// Every leaf as `path=value`, for counting how much of an item agrees when it is not equal.
  static func leaves(_ value: StructuredValue, path: String = "") -> [String] {
    switch value {
    case .array(let values): return values.flatMap { leaves($0, path: path) }
    case .object(let members):
      return members.keys.sorted().flatMap { leaves(members[$0]!, path: path + "/" + $0) }
    case .string(let text):
      return ["\(path)=\(text.trimmingCharacters(in: .whitespacesAndNewlines))"]
    case .number(let number): return ["\(path)=\(String(format: "%.4g", number))"]
    case .bool(let flag): return ["\(path)=\(flag)"]
    case .null: return ["\(path)=null"]
    }
  }

  /// (agreeing leaves, leaves on either side) between two item lists.
  static func leafAgreement(_ expected: [StructuredValue], _ actual: [StructuredValue]) -> (
    Int, Int
  ) {
    var remaining: [String: Int] = [:]
    let expectedLeaves = expected.flatMap { leaves($0) }
    for leaf in expectedLeaves { remaining[leaf, default: 0] += 1 }
    let actualLeaves = actual.flatMap { leaves($0) }
    var agreed = 0
    for leaf in actualLeaves where (remaining[leaf] ?? 0) > 0 {
      remaining[leaf]! -= 1
      agreed += 1
    }
    return (agreed, max(expectedLeaves.count, actualLeaves.count))
  }
}
