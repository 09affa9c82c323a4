/// Parent and last component of an absolute path in `FaithfulPath` form, by its last slash.
/// (`NSString`'s path methods normalise what they are given; these never do.)
enum PathText {
  /// "/a/b" → "/a"; "/a" → "/"; "/" → "/".
  static func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// "/a/b" → "b"; "/" → "".
  static func name(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
  }

  /// `name` inside `folder`.
  static func join(_ folder: String, _ name: String) -> String {
    folder == "/" ? "/" + name : folder + "/" + name
  }

  /// Whether `path` is `folder` or lies below it.
  static func isWithin(_ path: String, _ folder: String) -> Bool {
    if folder == "/" { return path.hasPrefix("/") }
    return path == folder || path.hasPrefix(folder + "/")
  }

  /// `path` (at or below `from`) moved under `to`.
  static func rebase(_ path: String, from: String, to: String) -> String {
    path == from ? to : to + path.dropFirst(from.count)
  }
}
