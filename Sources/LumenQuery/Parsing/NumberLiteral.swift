/// The numbers a query may contain: optional sign, digits with an optional fraction (or a
/// fraction alone), optional exponent — `10`, `-3.5`, `.5`, `1e-5`, `2.5E+3`. Checked by hand
/// rather than with `Double(_:)` alone, which would also take `nan`, `inf` and hexadecimal.
enum NumberLiteral {
  /// The finite value of `text`, or nil when it is not such a number (or overflows).
  static func parse(_ text: some StringProtocol) -> Double? {
    let bytes = Array(text.utf8)
    var index = 0
    func digits() -> Int {
      let start = index
      while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
      return index - start
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
      index += 1
    }
    var mantissaDigits = digits()
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      mantissaDigits += digits()
    }
    guard mantissaDigits > 0 else { return nil }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard digits() > 0 else { return nil }
    }
    guard index == bytes.count, let value = Double(String(decoding: bytes, as: UTF8.self)),
      value.isFinite
    else { return nil }
    return value
  }
}
