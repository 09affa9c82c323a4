import Glibc

/// One line of a `.gitignore`, `.ignore`, `.git/info/exclude` or exclude list, compiled as git
/// reads it (gitignore(5)):
/// - blank lines and lines starting with `#` say nothing; `\#` and `\!` start a literal `#`/`!`;
/// - trailing spaces are dropped unless escaped with a backslash; a CR before the line end too;
/// - `!` negates: a match re-includes what an earlier pattern excluded;
/// - a trailing `/` matches folders only;
/// - a `/` at the start or in the middle anchors the pattern to the folder of the file; without
///   one, the pattern matches a name at any depth;
/// - `**` as a whole component matches any number of folders (`**/x`, `a/**/b`), and a trailing
///   `/**` everything inside; other stars, `?`, `[...]` and `\` escapes are `fnmatch(3)`'s.
///
/// Matching is on bytes, like git's: names that are not UTF-8 match byte for byte.
struct IgnorePattern: Sendable {
  /// One `/`-separated part of an anchored pattern.
  enum Segment: Sendable {
    /// `**`: any number of components.
    case anyComponents
    case component(NameMatcher)
  }

  /// The line as written (after trimming), for `-v`-style reports.
  let text: String
  let line: Int
  let isNegated: Bool
  let matchesDirectoriesOnly: Bool
  /// Matched against the path relative to the pattern's folder, component by component.
  let segments: [Segment]?
  /// Matched against the last component only (a pattern without a `/`).
  let basename: NameMatcher?

  /// Compiles one line; nil for blank lines and comments.
  init?(line raw: ArraySlice<UInt8>, number: Int) {
    var bytes = Array(raw)
    if bytes.last == 0x0D { bytes.removeLast() }
    guard let first = bytes.first, first != 0x23 else { return nil }  // '#'
    bytes = Self.trimmingTrailingSpaces(bytes)
    var negated = false
    if bytes.first == 0x21 {  // '!'
      negated = true
      bytes.removeFirst()
    }
    var directoriesOnly = false
    if bytes.last == 0x2F {  // '/'
      directoriesOnly = true
      bytes.removeLast()
    }
    guard !bytes.isEmpty else { return nil }
    self.text = String(decoding: raw, as: UTF8.self)
    self.line = number
    self.isNegated = negated
    self.matchesDirectoriesOnly = directoriesOnly
    if bytes.contains(0x2F) {
      if bytes.first == 0x2F { bytes.removeFirst() }
      let parts = bytes.split(separator: 0x2F, omittingEmptySubsequences: false)
      self.segments = parts.map { part in
        part.elementsEqual([0x2A, 0x2A]) ? .anyComponents : .component(NameMatcher(Array(part)))
      }
      self.basename = nil
    } else {
      self.segments = nil
      self.basename = NameMatcher(bytes)
    }
  }

  /// Whether the pattern matches `path` (relative to the pattern's folder; never empty).
  func matches(_ path: RelativePath, isDirectory: Bool) -> Bool {
    if matchesDirectoriesOnly && !isDirectory { return false }
    if let basename { return basename.matches(path.last) }
    return Self.match(segments![...], path, from: 0)
  }

  private static func match(
    _ segments: ArraySlice<Segment>, _ path: RelativePath, from index: Int
  ) -> Bool {
    guard let segment = segments.first else { return index == path.count }
    let rest = segments.dropFirst()
    switch segment {
    case .anyComponents:
      // A trailing `/**` matches what is inside, not the folder itself.
      if rest.isEmpty { return index < path.count }
      var start = index
      while start <= path.count {
        if match(rest, path, from: start) { return true }
        start += 1
      }
      return false
    case .component(let matcher):
      guard index < path.count, matcher.matches(path[index]) else { return false }
      return match(rest, path, from: index + 1)
    }
  }

  /// git's `trim_trailing_spaces`: trailing spaces go unless the last one is escaped.
  private static func trimmingTrailingSpaces(_ bytes: [UInt8]) -> [UInt8] {
    var end = bytes.count
    var lastSpace: Int? = nil
    var index = 0
    while index < bytes.count {
      switch bytes[index] {
      case 0x20:
        if lastSpace == nil { lastSpace = index }
      case 0x5C:  // backslash: the next byte is escaped
        index += 1
        lastSpace = nil
      default:
        lastSpace = nil
      }
      index += 1
    }
    if let lastSpace { end = lastSpace }
    return Array(bytes[..<end])
  }
}

/// One name-level glob: plain text compared byte for byte, `*suffix` and `prefix*` as the
/// common fast cases (`*.o`, `build*`), anything else through `fnmatch(3)`.
enum NameMatcher: Sendable {
  case literal([UInt8])
  case suffix([UInt8])
  case prefix([UInt8])
  /// NUL-terminated for fnmatch.
  case glob([CChar])

  init(_ bytes: [UInt8]) {
    let special: Set<UInt8> = [0x2A, 0x3F, 0x5B, 0x5C]  // * ? [ backslash
    let starCount = bytes.lazy.filter { $0 == 0x2A }.count
    let otherSpecial = bytes.contains { special.contains($0) && $0 != 0x2A }
    if starCount == 0 && !otherSpecial {
      self = .literal(bytes)
    } else if starCount == 1 && !otherSpecial && bytes.first == 0x2A {
      self = .suffix(Array(bytes.dropFirst()))
    } else if starCount == 1 && !otherSpecial && bytes.last == 0x2A {
      self = .prefix(Array(bytes.dropLast()))
    } else {
      self = .glob(bytes.map { CChar(bitPattern: $0) } + [0])
    }
  }

  func matches(_ name: [UInt8]) -> Bool {
    switch self {
    case .literal(let literal):
      return name == literal
    case .suffix(let suffix):
      return name.count >= suffix.count
        && name[(name.count - suffix.count)...].elementsEqual(suffix)
    case .prefix(let prefix):
      return name.count >= prefix.count && name[..<prefix.count].elementsEqual(prefix)
    case .glob(let pattern):
      return withUnsafeTemporaryAllocation(of: CChar.self, capacity: name.count + 1) {
        terminated in
        for index in 0..<name.count { terminated[index] = CChar(bitPattern: name[index]) }
        terminated[name.count] = 0
        return fnmatch(pattern, terminated.baseAddress!, 0) == 0
      }
    }
  }
}

/// A path relative to an ignore file's folder, seen as components without building it: the
/// tail of a folder's components plus one name.
struct RelativePath {
  let folder: ArraySlice<[UInt8]>
  let name: [UInt8]

  var count: Int { folder.count + 1 }

  var last: [UInt8] { name }

  subscript(index: Int) -> [UInt8] {
    index == folder.count ? name : folder[folder.startIndex + index]
  }
}
