import LumenModel

/// Why an index operation was refused. Each case names what was wrong so the command line can
/// print it as is.
public enum SearchableIndexError: Error, Equatable, CustomStringConvertible {
  /// Core Spotlight's limit on a batch's client state.
  case clientStateTooLarge(bytes: Int)
  case batchAlreadyOpen
  case noOpenBatch
  /// A write on an index opened read-only.
  case readOnly(path: String)
  case invalidBatchSize(Int)
  /// A custom key used or declared with another type or multiplicity than it has in the index.
  case attributeKey(AttributeKeyError)
  /// An attribute named in a query or in options that the index does not know.
  case unknownAttribute(String)
  case cannotOpen(path: String, reason: String)
  /// Operators nested deeper than the store compiles, or more comparisons than it plans
  /// (long `&&`/`||` chains are fine up to that).
  case queryTooComplex(maximumNesting: Int)
  /// The file is damaged or is not a Lumen index (random bytes, a truncated file, another
  /// program's SQLite database). A writer moves it aside and starts afresh
  /// (`SearchableIndex.openRecoveringCorruption`); a reader reports it.
  case corrupt(path: String, reason: String)
  /// The disk holding the index is full (SQLITE_FULL, ENOSPC): the write that hit it was rolled
  /// back, so the index is as it was before it.
  case diskFull(path: String)

  /// Core Spotlight's maximum client-state size, in bytes.
  public static let maximumClientStateSize = 250

  public var description: String {
    switch self {
    case .clientStateTooLarge(let bytes):
      "the client state is \(bytes) bytes; at most \(Self.maximumClientStateSize) are allowed"
    case .batchAlreadyOpen: "a batch is already open on this index: end it first"
    case .noOpenBatch: "no batch is open: call beginBatch() first"
    case .readOnly(let path): "the index \(path) is open read-only"
    case .invalidBatchSize(let size): "invalid batch size \(size): it must be at least 1"
    case .attributeKey(let error): error.description
    case .unknownAttribute(let name): "unknown attribute '\(name)'"
    case .cannotOpen(let path, let reason): "cannot open the index \(path): \(reason)"
    case .queryTooComplex(let maximum):
      "the query is too complex: at most \(QueryCompiler.maximumComparisons) comparisons "
        + "nested at most \(maximum) levels deep"
    case .corrupt(let path, let reason): "the index \(path) is unusable: \(reason)"
    case .diskFull(let path):
      "the disk holding the index \(path) is full: nothing more was written, and the index holds "
        + "what was committed before"
    }
  }
}
