import Foundation
import LumenModel
import LumenQuery
import Testing

@testable import LumenStore

/// A temporary folder removed when the test ends.
final class TemporaryFolder: Sendable {
  let path: String

  init() throws {
    let base = FileManager.default.temporaryDirectory.path
    path = base + "/lumen-store-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  func location(_ name: String = "index.sqlite") -> IndexLocation {
    IndexLocation(path: path + "/" + name)
  }
}

/// A clock tests move by hand.
final class TestClock: Sendable {
  private let seconds: LockedValue<Double>
  init(_ start: Date = Date(timeIntervalSinceReferenceDate: 800_000_000)) {
    seconds = LockedValue(start.timeIntervalSinceReferenceDate)
  }
  var now: Date { Date(timeIntervalSinceReferenceDate: seconds.value) }
  func advance(_ interval: TimeInterval) { seconds.update { $0 += interval } }
  var function: @Sendable () -> Date { { self.now } }
}

final class LockedValue<Value: Sendable>: @unchecked Sendable {
  private var stored: Value
  private let lock = NSLock()
  init(_ value: Value) { stored = value }
  var value: Value { lock.withLock { stored } }
  func update(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}

/// An index in a fresh temporary folder.
func makeIndex(
  _ folder: TemporaryFolder, batchSize: Int = 500, clock: TestClock? = nil,
  contentTypes: ContentTypeRegistry? = nil
) throws -> SearchableIndex {
  var options = SearchableIndex.Options(batchSize: batchSize, contentTypes: contentTypes)
  if let clock { options.clock = clock.function }
  return try SearchableIndex(location: folder.location(), options: options)
}

/// An item from (key, value) pairs.
func item(
  _ id: String, domain: String? = nil, expiration: Date? = nil, update: Bool = false,
  _ pairs: [(AttributeKey, AttributeValue)] = []
) -> SearchableItem {
  SearchableItem(
    uniqueIdentifier: id, domainIdentifier: domain, attributeSet: AttributeSet(pairs),
    expirationDate: expiration, isUpdate: update)
}

/// A file item: identifier = path, with fileName.
func fileItem(_ path: String, _ pairs: [(AttributeKey, AttributeValue)] = [])
  -> SearchableItem
{
  let name = String(path.split(separator: "/").last ?? "")
  return item(path, [(.path, .text(path)), (.fileName, .text(name))] + pairs)
}

/// Identifiers of the matches of a parsed query, sorted.
func identifiers(
  _ index: SearchableIndex, _ query: String, options: SearchOptions = SearchOptions()
) async throws -> [String] {
  let expression = try QueryParser(registry: index.registry).parse(query)
  return try await index.search(expression, options: options).map(\.identifier).sorted()
}

/// Identifiers of the matches of an AST, sorted.
func identifiers(_ index: SearchableIndex, _ expression: QueryExpression) async throws
  -> [String]
{
  try await index.search(expression).map(\.identifier).sorted()
}
