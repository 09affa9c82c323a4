/// A folder to read.
struct DirectoryTask: Sendable {
  let path: String
  let systemPath: SystemPath
  let rawName: [UInt8]
  let root: ScopeRoot
  /// Nil for a root: its own device becomes its descendants'.
  let rootDevice: UInt64?
  /// Nil for a root.
  let parentFrame: ScopeFrame?
  /// Where the walk began: its parent is not walked, so the folder's own item is the visitor's
  /// to compare.
  var isStart = false
}
