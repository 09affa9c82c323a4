import LumenModel

/// Reads one rule file: a key file (the INI format of Tracker's .rule files) whose every group
/// is one rule, whatever its name (`[ExtractorRule]` as in Tracker, or `[Photos]`). Keys that
/// Lumen does not know are errors, not ignored, so a misspelt `MaxByte=` cannot quietly leave a
/// limit at its default.
struct RuleFileParser {
  static let knownKeys: Set<String> = [
    "Extractor", "MimeTypes", "BlockMimeTypes", "ContentType", "Priority", "MaxBytes",
    "MaxTextBytes", "MaxPages", "Timeout", "MaxMemory",
  ]

  let path: String
  let fileName: String
  let catalog: ExtractorCatalog

  func parse(_ text: String) throws(RuleError) -> [ExtractionRule] {
    let file: KeyFile
    do {
      file = try KeyFile(source: path, text: text)
    } catch {
      throw RuleError(path: path, line: error.line, message: error.message)
    }
    return try file.groups.map { group throws(RuleError) in try rule(from: group) }
  }

  private func rule(from group: KeyFile.Group) throws(RuleError) -> ExtractionRule {
    for entry in group.entries where !Self.knownKeys.contains(entry.key) {
      throw RuleError(
        path: path, line: entry.line,
        message:
          "unknown key '\(entry.key)' (known: \(Self.knownKeys.sorted().joined(separator: ", ")))")
    }
    func line(_ key: String) -> Int {
      group.entries.last { $0.key == key }?.line ?? group.line
    }
    guard let extractor = group.value("Extractor"), !extractor.isEmpty else {
      throw RuleError(path: path, line: group.line, message: "[\(group.name)] has no Extractor=")
    }
    guard catalog.type(named: extractor) != nil else {
      throw RuleError(
        path: path, line: line("Extractor"),
        message:
          "unknown extractor '\(extractor)' (known: \(catalog.names.joined(separator: ", ")))")
    }
    let mimeTypes = group.list("MimeTypes").map(MIMEPattern.init)
    guard !mimeTypes.isEmpty else {
      throw RuleError(path: path, line: group.line, message: "[\(group.name)] has no MimeTypes=")
    }
    var limits = ExtractionLimits()
    if let text = group.value("MaxBytes") {
      limits.maxBytes = try byteCount(text, key: "MaxBytes", line: line("MaxBytes"))
    }
    if let text = group.value("MaxTextBytes") {
      limits.maxTextBytes = try byteCount(text, key: "MaxTextBytes", line: line("MaxTextBytes"))
    }
    if let text = group.value("MaxPages") {
      guard let value = Int(text.trimmingSpaces), value > 0 else {
        throw RuleError(
          path: path, line: line("MaxPages"),
          message: "MaxPages must be a positive number of pages, not '\(text)'")
      }
      limits.maxPages = value
    }
    if let text = group.value("Timeout") {
      limits.timeoutSeconds = try seconds(text, line: line("Timeout"))
    }
    if let text = group.value("MaxMemory") {
      limits.maxMemoryBytes = try byteCount(text, key: "MaxMemory", line: line("MaxMemory"))
    }
    var priority = 0
    if let text = group.value("Priority") {
      guard let value = Int(text) else {
        throw RuleError(
          path: path, line: line("Priority"), message: "Priority must be an integer, not '\(text)'")
      }
      priority = value
    }
    var contentType: String? = nil
    if let text = group.value("ContentType"), !text.isEmpty {
      guard text.contains("."), !text.contains(where: \.isWhitespace) else {
        throw RuleError(
          path: path, line: line("ContentType"),
          message: "ContentType must be a type identifier such as public.jpeg, not '\(text)'")
      }
      contentType = text
    }
    return ExtractionRule(
      extractor: extractor, mimeTypes: mimeTypes,
      blockMimeTypes: group.list("BlockMimeTypes").map(MIMEPattern.init),
      contentType: contentType, priority: priority, limits: limits,
      source: RuleSource(path: path, fileName: fileName, line: group.line))
  }

  /// A positive byte count: a plain number, or one with a binary suffix (K, M, G; KiB, MiB,
  /// GiB), so `MaxBytes=64M` means 64 × 2²⁰ bytes.
  func byteCount(_ text: String, key: String, line: Int) throws(RuleError) -> Int {
    let units: [(String, Int)] = [
      ("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30), ("K", 1 << 10), ("M", 1 << 20),
      ("G", 1 << 30),
    ]
    var digits = Substring(text)
    var scale = 1
    for (suffix, factor) in units where text.hasSuffix(suffix) {
      digits = text.dropLast(suffix.count)
      scale = factor
      break
    }
    guard let value = Int(digits.trimmingSpaces), value > 0,
      !value.multipliedReportingOverflow(by: scale).overflow
    else {
      throw RuleError(
        path: path, line: line,
        message: "\(key) must be a positive byte count such as 1048576 or 64M, not '\(text)'")
    }
    return value * scale
  }

  /// Positive seconds, optionally with an `s`: `Timeout=5`, `Timeout=0.5s`.
  func seconds(_ text: String, line: Int) throws(RuleError) -> Double {
    let digits = text.hasSuffix("s") ? String(text.dropLast()) : text
    guard let value = Double(digits.trimmingSpaces), value.isFinite, value > 0 else {
      throw RuleError(
        path: path, line: line, message: "Timeout must be positive seconds such as 5, not '\(text)'"
      )
    }
    return value
  }
}

extension StringProtocol {
  fileprivate var trimmingSpaces: String {
    var slice = Substring(self)
    while slice.first == " " { slice = slice.dropFirst() }
    while slice.last == " " { slice = slice.dropLast() }
    return String(slice)
  }
}
