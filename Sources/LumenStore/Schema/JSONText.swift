import Foundation

/// Minimal JSON text for lists bound to `json_each(?)`.
enum JSONText {
  static func array(_ strings: [String]) -> String {
    var out = "["
    out.reserveCapacity(strings.reduce(2) { $0 + $1.utf8.count + 3 })
    for (position, string) in strings.enumerated() {
      if position > 0 { out += "," }
      appendQuoted(string, to: &out)
    }
    return out + "]"
  }

  static func quoted(_ string: String) -> String {
    var out = ""
    appendQuoted(string, to: &out)
    return out
  }

  /// Most identifiers and paths need no escape: they are appended whole, byte for byte (the
  /// scalar-by-scalar path showed in profiles of the write path).
  static func appendQuoted(_ string: String, to out: inout String) {
    if !string.utf8.contains(where: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }) {
      out += "\""
      out += string
      out += "\""
      return
    }
    out += escaped(string)
  }

  private static func escaped(_ string: String) -> String {
    var out = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
