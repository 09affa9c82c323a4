/// A `path` attribute split into its folder and last component, so that every item of a folder
/// shares one `directory` row. The split is reversible for any text, not only absolute paths:
/// `directory.path + "/" + name`, or just `name` when the text has no slash.
struct StoredPath: Sendable, Equatable {
  /// Everything before the last slash ("" for a child of the root); nil when there is no slash.
  let directory: String?
  /// Everything after the last slash.
  let name: String

  init(_ path: String) {
    let bytes = Array(path.utf8)
    if let slash = bytes.lastIndex(of: UInt8(ascii: "/")) {
      directory = String(decoding: bytes[..<slash], as: UTF8.self)
      name = String(decoding: bytes[(slash + 1)...], as: UTF8.self)
    } else {
      directory = nil
      name = path
    }
  }

  init(directory: String?, name: String) {
    self.directory = directory
    self.name = name
  }

  var path: String {
    guard let directory else { return name }
    return directory + "/" + name
  }
}
