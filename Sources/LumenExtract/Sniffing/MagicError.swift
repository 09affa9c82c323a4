/// libmagic could not open or load its database.
public struct MagicError: Error, Equatable, CustomStringConvertible {
  public let message: String
  public var description: String { "libmagic: \(message)" }
}
