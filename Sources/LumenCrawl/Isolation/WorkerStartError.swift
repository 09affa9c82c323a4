/// The worker program could not be started at all.
public struct WorkerStartError: Error, CustomStringConvertible {
  public let executable: String
  public let reason: String

  public var description: String {
    "cannot start the extraction worker \(executable): \(reason)"
  }
}
