/// The domain identifier of a root's file items: `files.` and the root's path with `%` and
/// `.` percent-encoded (`/home/ann/my.photos` → `files./home/ann/my%2Ephotos`).
///
/// Why this shape: domains are hierarchical by dots (deleting `files./home/ann` must not delete
/// a sibling root's items), and paths are full of dots. With the dots escaped, the only dot is
/// the one after `files`, so each root's domain is a leaf, readable in `lumen status`,
/// computable from the path alone (`lumen forget PATH` needs no lookup table), and stored once
/// per root by the index, not once per item.
public enum FileDomain {
  public static let prefix = "files."

  public static func identifier(forRoot root: String) -> String {
    var encoded = ""
    encoded.reserveCapacity(root.utf8.count)
    for character in root.unicodeScalars {
      switch character {
      case "%": encoded += "%25"
      case ".": encoded += "%2E"
      default: encoded.unicodeScalars.append(character)
      }
    }
    return prefix + encoded
  }

  /// The root a file domain stands for; nil when `identifier` is not a file domain.
  public static func root(fromIdentifier identifier: String) -> String? {
    guard identifier.hasPrefix(prefix) else { return nil }
    let encoded = identifier.dropFirst(prefix.count)
    guard !encoded.contains(".") else { return nil }
    var decoded = ""
    var index = encoded.startIndex
    while index < encoded.endIndex {
      let character = encoded[index]
      if character == "%", let end = encoded.index(index, offsetBy: 3, limitedBy: encoded.endIndex)
      {
        switch encoded[index..<end] {
        case "%25": decoded += "%"
        case "%2E": decoded += "."
        default: return nil
        }
        index = end
      } else {
        decoded.append(character)
        index = encoded.index(after: index)
      }
    }
    return decoded
  }
}
