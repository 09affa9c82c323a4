/// Part names inside a zip package, resolved the way OPC and OCF define them: relative to the
/// referring part's folder, `..` and `.` collapsed, percent-escapes decoded, a leading `/` meaning
/// the package root. The result is only ever used to look up an entry, never a file path.
enum PackagePath {
  /// The folder of a part (`ppt/` for `ppt/presentation.xml`, empty at the root).
  static func folder(of part: String) -> String {
    guard let slash = part.lastIndex(of: "/") else { return "" }
    return String(part[...slash])
  }

  static func resolve(_ reference: String, from folder: String) -> String {
    var target = reference
    if let hash = target.firstIndex(of: "#") { target = String(target[..<hash]) }
    target = target.removingPercentEncodingIfValid()
    let combined = target.hasPrefix("/") ? String(target.dropFirst()) : folder + target
    var parts: [Substring] = []
    for piece in combined.split(separator: "/", omittingEmptySubsequences: true) {
      switch piece {
      case ".": continue
      case "..": if !parts.isEmpty { parts.removeLast() }
      default: parts.append(piece)
      }
    }
    return parts.joined(separator: "/")
  }
}

extension String {
  /// `%20` and friends decoded; the string unchanged when an escape is malformed.
  func removingPercentEncodingIfValid() -> String {
    guard contains("%") else { return self }
    var bytes: [UInt8] = []
    var iterator = utf8.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next(), let low = iterator.next(),
        let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
      else { return self }
      bytes.append(value)
    }
    return String(validating: bytes, as: UTF8.self) ?? self
  }
}
