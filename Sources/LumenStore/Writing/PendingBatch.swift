import LumenModel

/// One buffered write.
enum PendingOperation: Sendable {
  case index([SearchableItem])
  case deleteIdentifiers([String])
  case deleteDomains([String])
  case deleteAll

  /// How much of a chunk it fills: one per item or identifier.
  var weight: Int {
    switch self {
    case .index(let items): items.count
    case .deleteIdentifiers(let identifiers): identifiers.count
    case .deleteDomains, .deleteAll: 1
    }
  }

  /// Splits off at most `limit` units of weight.
  func split(at limit: Int) -> (PendingOperation, PendingOperation?) {
    switch self {
    case .index(let items) where items.count > limit:
      return (.index(Array(items[..<limit])), .index(Array(items[limit...])))
    case .deleteIdentifiers(let ids) where ids.count > limit:
      return (.deleteIdentifiers(Array(ids[..<limit])), .deleteIdentifiers(Array(ids[limit...])))
    default:
      return (self, nil)
    }
  }
}

/// The writes of an open batch, in order.
struct PendingBatch: Sendable {
  private(set) var operations: [PendingOperation] = []
  private var weight = 0

  mutating func append(_ operation: PendingOperation) {
    operations.append(operation)
    weight += operation.weight
  }

  /// Removes and returns the full chunks, keeping the remainder (less than one chunk).
  mutating func takeFullChunks(size: Int) -> [[PendingOperation]] {
    guard weight >= size else { return [] }
    var chunks = Self.chunks(operations, size: size)
    let lastWeight = chunks.last.map { $0.reduce(0) { $0 + $1.weight } } ?? 0
    if lastWeight < size, let rest = chunks.popLast() {
      operations = rest
      weight = lastWeight
    } else {
      operations = []
      weight = 0
    }
    return chunks
  }

  /// Cuts operations into chunks of at most `size` units, in order.
  static func chunks(_ operations: [PendingOperation], size: Int) -> [[PendingOperation]] {
    var chunks: [[PendingOperation]] = []
    var current: [PendingOperation] = []
    var currentWeight = 0
    for operation in operations {
      var remaining: PendingOperation? = operation
      while let next = remaining {
        let (head, tail) = next.split(at: size - currentWeight)
        current.append(head)
        currentWeight += head.weight
        remaining = tail
        if currentWeight >= size {
          chunks.append(current)
          current = []
          currentWeight = 0
        }
      }
    }
    if !current.isEmpty { chunks.append(current) }
    return chunks
  }
}
