import LumenModel

/// Custom attribute names for structured data: `schema.Event.location.address.addressLocality`
/// (vocabulary, root type, property path). Every part is reduced to letters, digits and `_`,
/// so any property of any vocabulary becomes a queryable key.
enum DottedKey {
  /// Letters, digits and `_` kept; anything else becomes `_`; never empty.
  static func sanitize(_ part: String) -> String {
    var result = ""
    for scalar in part.unicodeScalars {
      let isASCIIWord =
        scalar.isASCII
        && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
      result.unicodeScalars.append(isASCIIWord ? scalar : "_")
    }
    return result.isEmpty ? "_" : result
  }

  /// The key for a path, or nil when it would be longer than a custom key may be.
  static func key(_ parts: [String]) -> AttributeKey? {
    let name = parts.map(sanitize).joined(separator: ".")
    return try? AttributeKey.custom(name, valueType: .text, multiValued: true)
  }
}
