/// Minimum, median and maximum of a handful of measurements: over a few runs on a shared
/// machine the median is the figure to quote and the spread says how far to trust it.
struct RunStatistics: Sendable {
  let minimum: Double
  let median: Double
  let maximum: Double

  init(_ values: [Double]) {
    let sorted = values.sorted()
    precondition(!sorted.isEmpty, "statistics of no runs")
    minimum = sorted.first!
    maximum = sorted.last!
    let middle = sorted.count / 2
    median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  var json: [String: Double] {
    ["min": Self.rounded(minimum), "median": Self.rounded(median), "max": Self.rounded(maximum)]
  }

  private static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
