import Foundation

/// Minimal JSON text for lists bound to `json_each(?)`.
enum JSONText {
  static func array(_ strings: [String]) -> String {
    "[" + strings.map(quoted).joined(separator: ",") + "]"
  }

  static func quoted(_ string: String) -> String {
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
