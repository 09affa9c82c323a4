import Glibc

/// A failed system call: which call and the `errno` it left. The crawl wraps it with a path
/// (`CrawlError`); on its own it says what the kernel said.
public struct SystemCallError: Error, Hashable, CustomStringConvertible, Sendable {
  public let call: String
  public let code: Int32

  public init(_ call: String, code: Int32 = errno) {
    self.call = call
    self.code = code
  }

  /// `strerror`'s text, e.g. "Permission denied".
  public var message: String { String(cString: strerror(code)) }

  public var description: String { "\(call): \(message)" }

  public var isPermissionDenied: Bool { code == EACCES || code == EPERM }
  /// The entry is gone (or a path component stopped being a folder) since it was listed.
  public var isVanished: Bool { code == ENOENT || code == ENOTDIR }
}

/// Runs a system call until it stops failing with EINTR; -1 becomes a thrown error.
@inline(__always)
func retryingOnInterrupt(_ call: String, _ body: () -> Int32) throws(SystemCallError) -> Int32 {
  while true {
    let result = body()
    if result >= 0 { return result }
    if errno != EINTR { throw SystemCallError(call) }
  }
}
