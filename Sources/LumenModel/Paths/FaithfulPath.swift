/// File names on Linux are bytes, not text; a name that is not valid UTF-8 must still be indexed
/// and printed back byte for byte. Lumen stores paths as Swift strings and carries each byte of an
/// invalid sequence as one private-use scalar (U+10FE80 … U+10FEFF, as Python's surrogateescape
/// does with lone surrogates, which Swift strings cannot hold). Valid UTF-8 is unchanged.
public enum FaithfulPath {
  static let escapeBase: UInt32 = 0x10FE00

  /// The string for a path's bytes.
  public static func decode<Bytes: Collection>(_ bytes: Bytes) -> String
  where Bytes.Element == UInt8 {
    if let valid = String(validating: bytes, as: UTF8.self) { return valid }
    let array = Array(bytes)
    var scalars = String.UnicodeScalarView()
    var index = 0
    while index < array.count {
      var parser = Unicode.UTF8.ForwardParser()
      var iterator = array[index...].makeIterator()
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        scalars.append(Unicode.UTF8.decode(encoded))
        index += encoded.count
      case .error(let length):
        for byte in array[index..<index + length] {
          scalars.append(Unicode.Scalar(escapeBase + UInt32(byte))!)
        }
        index += length
      case .emptyInput:
        index = array.count
      }
    }
    return String(scalars)
  }

  /// The bytes a decoded path stands for: the inverse of `decode`.
  public static func encode(_ path: String) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(path.utf8.count)
    for scalar in path.unicodeScalars {
      let value = scalar.value
      if value >= escapeBase + 0x80, value <= escapeBase + 0xFF {
        bytes.append(UInt8(value - escapeBase))
      } else {
        bytes.append(contentsOf: String(scalar).utf8)
      }
    }
    return bytes
  }

  /// Whether a decoded path carries escaped bytes (its name was not valid UTF-8).
  public static func hasEscapes(_ path: String) -> Bool {
    path.unicodeScalars.contains { $0.value >= escapeBase + 0x80 && $0.value <= escapeBase + 0xFF }
  }

  /// A form safe for a terminal or a log: escaped bytes as `\xNN`.
  public static func display(_ path: String) -> String {
    guard hasEscapes(path) else { return path }
    var out = ""
    for scalar in path.unicodeScalars {
      let value = scalar.value
      if value >= escapeBase + 0x80, value <= escapeBase + 0xFF {
        let byte = UInt8(value - escapeBase)
        out += "\\x" + String(byte, radix: 16, uppercase: true)
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
