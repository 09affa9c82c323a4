import Dispatch
import Foundation
import FuzzSupport
import Lumen
import LumenModel
import LumenQuery
import LumenStore

/// The fuzz target for the query language: the input, as text, goes through the parser; a
/// query that parses is evaluated against a sample item, printed back, and run as SQL on a
/// small real index (the compiler and SQLite see what the parser accepts). A syntax error is
/// a correct answer; a crash, a sanitizer report, an SQL error or a formatter round trip that
/// changes the query is a finding.
func fuzzQuery(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data else { return 0 }
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  guard let expression = try? QueryFixture.parser.parse(text) else { return 0 }
  _ = QueryEvaluator().matches(expression, QueryFixture.sample)
  // The formatter promises text that parses back to the same tree (free text aside).
  if case .freeText = expression {
  } else {
    let formatted = QueryFormatter.format(expression)
    guard let again = try? QueryFixture.parser.parse(formatted), again == expression else {
      fatalError(
        "\(text.prefix(200)) was printed as \(formatted.prefix(200)), which reads differently")
    }
  }
  QueryFixture.search(expression, query: text)
  return 0
}

enum QueryFixture {
  static let parser = QueryParser(now: Date(timeIntervalSince1970: 1_700_000_000))

  static let sample: AttributeSet = {
    var attributes = AttributeSet()
    attributes.set(.text("Quarterly budget"), for: .title)
    attributes.set(.number(12), for: .pageCount)
    attributes.set([.text("Ada"), .text("Grace")], for: .authors)
    attributes.set(.date(Date(timeIntervalSince1970: 1_690_000_000)), for: .contentModificationDate)
    attributes.set(.text("/home/u/budget.pdf"), for: .path)
    return attributes
  }()

  static let index: SearchableIndex = {
    let path = "/dev/shm/lumen-fuzz-query-\(getpid()).sqlite"
    unlink(path)
    let index = try! SearchableIndex(location: IndexLocation(path: path))
    wait {
      try await index.indexSearchableItems([
        SearchableItem(
          uniqueIdentifier: "/home/u/budget.pdf", domainIdentifier: "files", attributeSet: sample),
        SearchableItem(
          uniqueIdentifier: "note-1", attributeSet: AttributeSet([(.title, .text("Café ümlaut"))])),
      ])
    }
    return index
  }()

  static func search(_ expression: QueryExpression, query: String) {
    wait {
      do {
        _ = try await index.count(expression)
      } catch {
        fatalError(
          "the index refused a query the parser accepted: \(String(reflecting: String(query.prefix(200)))): \(error)"
        )
      }
    }
  }

  private static func wait(_ body: @escaping @Sendable () async throws -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
      try? await body()
      done.signal()
    }
    done.wait()
  }
}

FuzzDriver.run { data, size in fuzzQuery(data, size) }
