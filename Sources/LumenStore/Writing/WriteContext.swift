import Foundation
import LumenModel

/// Everything a write transaction needs besides the database: fixed for its duration.
struct WriteContext: Sendable {
  let layout: StorageLayout
  let registry: AttributeRegistry
  let now: Date
  let defaultExpiration: TimeInterval
  let contentTypes: ContentTypeRegistry?
  let batchSize: Int
}
