/// The INI-style "key file" format of Lumen's rules/ (the format GNOME Tracker's rules use):
/// `[Group]` headers, `Key=Value` lines, `#` or `;` comments. Parsed from text, so the model stays
/// free of I/O; errors carry the source name and line so a broken rule file is easy to find.
public struct KeyFile: Sendable, Equatable {
  public struct Group: Sendable, Equatable {
    public let name: String
    public let line: Int
    public private(set) var entries: [(key: String, value: String, line: Int)] = []

    public init(name: String, line: Int) {
      self.name = name
      self.line = line
    }

    public func value(_ key: String) -> String? {
      entries.last(where: { $0.key == key })?.value
    }

    /// A `;`-separated list, trimmed, without empty items.
    public func list(_ key: String) -> [String] {
      guard let raw = value(key) else { return [] }
      return raw.split(separator: ";").map { $0.keyFileTrimmed }
        .filter { !$0.isEmpty }
    }

    mutating func add(_ key: String, _ value: String, line: Int) {
      entries.append((key, value, line))
    }

    public static func == (lhs: Group, rhs: Group) -> Bool {
      lhs.name == rhs.name && lhs.entries.map(\.key) == rhs.entries.map(\.key)
        && lhs.entries.map(\.value) == rhs.entries.map(\.value)
    }
  }

  public let source: String
  public private(set) var groups: [Group] = []

  public init(source: String, text: String) throws(KeyFileError) {
    self.source = source
    var lineNumber = 0
    for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
      lineNumber += 1
      let line = rawLine.keyFileTrimmed
      if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
      if line.hasPrefix("[") {
        guard line.hasSuffix("]"), line.count > 2 else {
          throw KeyFileError(source: source, line: lineNumber, message: "malformed group header")
        }
        let name = String(line.dropFirst().dropLast()).keyFileTrimmed
        groups.append(Group(name: name, line: lineNumber))
        continue
      }
      guard let equals = line.firstIndex(of: "=") else {
        throw KeyFileError(source: source, line: lineNumber, message: "expected Key=Value")
      }
      guard !groups.isEmpty else {
        throw KeyFileError(source: source, line: lineNumber, message: "key outside of a group")
      }
      let key = line[..<equals].keyFileTrimmed
      let value = line[line.index(after: equals)...].keyFileTrimmed
      guard !key.isEmpty else {
        throw KeyFileError(source: source, line: lineNumber, message: "empty key")
      }
      groups[groups.count - 1].add(key, value, line: lineNumber)
    }
  }
}

public struct KeyFileError: Error, Equatable, CustomStringConvertible {
  public let source: String
  public let line: Int
  public let message: String

  public init(source: String, line: Int, message: String) {
    self.source = source
    self.line = line
    self.message = message
  }

  public var description: String { "\(source):\(line): \(message)" }
}

extension StringProtocol {
  /// Trimmed of spaces, tabs and carriage returns (rule files may have Windows line ends).
  var keyFileTrimmed: String {
    var slice = Substring(self)
    while let first = slice.first, first == " " || first == "\t" || first == "\r" {
      slice = slice.dropFirst()
    }
    while let last = slice.last, last == " " || last == "\t" || last == "\r" {
      slice = slice.dropLast()
    }
    return String(slice)
  }
}
