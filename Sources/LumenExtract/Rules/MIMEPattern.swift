import Glibc

/// A `MimeTypes=` glob such as `image/*` or `application/vnd.oasis.opendocument.*`, matched
/// with fnmatch(3) (`*`, `?`, `[…]`), case-insensitively, against the MIME type without
/// parameters — the same globs Tracker's GPatternSpec accepts.
public struct MIMEPattern: Sendable, Hashable, Codable, CustomStringConvertible {
  public let pattern: String

  public init(_ pattern: String) {
    self.pattern = pattern.lowercased()
  }

  public func matches(_ mimeType: String) -> Bool {
    fnmatch(pattern, Self.essence(of: mimeType), 0) == 0
  }

  /// `text/plain; charset=utf-8` → `text/plain`.
  public static func essence(of mimeType: String) -> String {
    let base = mimeType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? mimeType
    return base.trimmingCharacters(in: " \t").lowercased()
  }

  public var description: String { pattern }
}

extension String {
  fileprivate func trimmingCharacters(in set: String) -> String {
    var slice = Substring(self)
    while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
    while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
    return String(slice)
  }
}
