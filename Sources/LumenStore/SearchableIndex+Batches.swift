import Foundation
import LumenModel

/// Core Spotlight's index batches: between `beginBatch()` and `endBatch(clientState:)`, writes
/// are buffered and flushed in chunks of `batchSize`; the last chunk and the client state are
/// committed in one transaction, so after a crash the stored state says exactly which batches
/// are wholly in the index and a client can resume from it.
extension SearchableIndex {
  /// Starts buffering writes. One batch at a time per index instance.
  public func beginBatch() throws {
    try state.withLock { state in
      guard state.batch == nil else { throw SearchableIndexError.batchAlreadyOpen }
      state.batch = PendingBatch()
    }
  }

  /// Writes what the batch still holds, together with `clientState`, in one transaction. A state
  /// over 250 bytes is refused before anything is written (the batch stays open). If the write
  /// fails, the batch is closed, its unwritten part is discarded and the stored client state is
  /// still that of the previous batch.
  public func endBatch(clientState: Data) async throws {
    guard clientState.count <= SearchableIndexError.maximumClientStateSize else {
      throw SearchableIndexError.clientStateTooLarge(bytes: clientState.count)
    }
    guard !options.readOnly else { throw SearchableIndexError.readOnly(path: location.path) }
    let operations = try state.withLock { state -> [PendingOperation] in
      guard let batch = state.batch else { throw SearchableIndexError.noOpenBatch }
      state.batch = nil
      return batch.operations
    }
    let chunks = PendingBatch.chunks(operations, size: options.batchSize)
    for (index, chunk) in chunks.enumerated() {
      let isLast = index == chunks.count - 1
      try await write { writer in
        try writer.apply(chunk)
        if isLast { try writer.storeClientState(clientState) }
      }
    }
    if chunks.isEmpty {
      try await write { writer in try writer.storeClientState(clientState) }
    }
  }

  /// The client state of the last completed batch; nil before the first.
  public func fetchLastClientState() async throws -> Data? {
    try await read { db, _ in
      try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'client_state'")
    }
  }

  /// Adds an operation to the open batch, writing out every full chunk. False when no batch is
  /// open (the caller writes directly).
  func enqueueInBatch(_ operation: PendingOperation) async throws -> Bool {
    let ready = state.withLock { state -> [[PendingOperation]]? in
      guard state.batch != nil else { return nil }
      state.batch!.append(operation)
      return state.batch!.takeFullChunks(size: options.batchSize)
    }
    guard let ready else { return false }
    for chunk in ready {
      try await write { writer in try writer.apply(chunk) }
    }
    return true
  }
}

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

extension ItemWriter {
  func apply(_ operations: [PendingOperation]) throws {
    for operation in operations {
      switch operation {
      case .index(let items): try write(items)
      case .deleteIdentifiers(let identifiers): try delete(identifiers: identifiers)
      case .deleteDomains(let domains): try delete(domains: domains)
      case .deleteAll: try deleteAll()
      }
    }
  }

  func storeClientState(_ state: Data) throws {
    try db.execute(
      sql: "INSERT OR REPLACE INTO meta(key, value) VALUES ('client_state', ?)",
      arguments: [state])
  }
}
