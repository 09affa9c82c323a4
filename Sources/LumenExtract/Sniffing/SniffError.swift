import Glibc

/// A system call failed while sniffing; the caller adds the path.
public struct SniffError: Error, Equatable, CustomStringConvertible {
  public let call: String
  public let code: Int32

  public init(call: String, code: Int32) {
    self.call = call
    self.code = code
  }

  public var description: String { "\(call): \(String(cString: strerror(code)))" }
}
