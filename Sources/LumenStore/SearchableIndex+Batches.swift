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
