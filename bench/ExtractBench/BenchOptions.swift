/// What `ExtractBench` was asked to measure. Hand-parsed: the benchmark needs nothing the
/// `lumen` command's parser would add, and stays one small executable.
struct BenchOptions {
  /// The shipped rules folder: `content-types.conf` for the sniffer, `*.rule` for extraction.
  var rules = "rules"
  /// Worker threads, each taking the next file from a shared queue.
  var jobs = 1
  /// Timed passes over the same files, after one untimed pass that warms caches and
  /// libraries' lazy set-up.
  var runs = 3
  /// A timed run repeats whole passes until it has lasted this long, so that a family read in
  /// 30 ms is not timed by the scheduler's whims.
  var minimumSeconds = 1.0
  var folders: [String] = []

  static let usage =
    "usage: ExtractBench --rules DIR [--jobs N] [--runs R] [--min-seconds S] FOLDER..."

  static func parse(_ arguments: [String]) throws(BenchOptionsError) -> BenchOptions {
    var options = BenchOptions()
    var rest = arguments[...]
    func value(of name: String) throws(BenchOptionsError) -> String {
      guard let value = rest.popFirst() else { throw BenchOptionsError("\(name) needs a value") }
      return value
    }
    func count(of name: String) throws(BenchOptionsError) -> Int {
      let text = try value(of: name)
      guard let number = Int(text), number > 0 else {
        throw BenchOptionsError("\(name) wants a positive whole number, not '\(text)'")
      }
      return number
    }
    while let argument = rest.popFirst() {
      switch argument {
      case "--rules": options.rules = try value(of: argument)
      case "--jobs": options.jobs = try count(of: argument)
      case "--runs": options.runs = try count(of: argument)
      case "--min-seconds":
        let text = try value(of: argument)
        guard let seconds = Double(text), seconds >= 0 else {
          throw BenchOptionsError("--min-seconds wants a number of seconds, not '\(text)'")
        }
        options.minimumSeconds = seconds
      case "-h", "--help": throw BenchOptionsError(usage)
      default:
        if argument.hasPrefix("-") { throw BenchOptionsError("unknown option '\(argument)'") }
        options.folders.append(argument)
      }
    }
    if options.folders.isEmpty { throw BenchOptionsError("no folder to read\n\(usage)") }
    return options
  }
}

struct BenchOptionsError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
