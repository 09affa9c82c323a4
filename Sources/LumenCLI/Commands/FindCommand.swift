import ArgumentParser
import Foundation
import LumenModel
import LumenQuery
import LumenStore

/// `lumen find`: mdfind for Lumen. The query is parsed before anything is opened, the index is
/// opened read-only, and a malformed query exits 2 with a caret under the column.
struct FindCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "find",
    abstract: "Search the index with the Spotlight query language.",
    discussion: """
      Prints the path of each matching file item (the identifier of other items), one per line.
      QUERY is a Spotlight query such as 'kMDItemNumberOfPages > 10 && authors == "knuth*"c';
      words without operators search free text. See lumen-query(7).
      """)

  @OptionGroup var index: IndexOptions

  @Option(
    name: .customLong("onlyin"),
    help: ArgumentHelp(
      "Only items under this folder (repeatable).", valueName: "dir"))
  var onlyIn: [String] = []

  @Option(
    help: ArgumentHelp(
      "Only items whose file name contains TEXT (case and diacritics ignored).", valueName: "text"))
  var name: String?

  @Flag(help: "Print only the number of matches.")
  var count = false

  @Flag(name: .customShort("0"), help: "Separate results with NUL instead of newline.")
  var nulSeparated = false

  @Flag(help: "Print JSON Lines: id, path and the --attr keys, typed.")
  var json = false

  @Option(
    name: .customLong("attr"),
    help: ArgumentHelp(
      "Also print this attribute (repeatable).", valueName: "key"))
  var attributes: [String] = []

  @Option(
    help: ArgumentHelp(
      "Sort by this attribute; prefix with '-' for descending. Default: relevance for free text.",
      valueName: "key"))
  var sort: String?

  @Option(help: ArgumentHelp("Print at most N results.", valueName: "n"))
  var limit: Int?

  @Flag(
    help: """
      Keep running: print '+ path' / '- path' as items start / stop matching, until interrupted.
      """)
  var live = false

  @Argument(help: "The query.")
  var query: [String] = []

  func validate() throws {
    if query.isEmpty && name == nil {
      throw ValidationError("give a QUERY or --name TEXT")
    }
    if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
    if count && json { throw ValidationError("--count and --json cannot be combined") }
    if count && live { throw ValidationError("--count and --live cannot be combined") }
  }

  func run() async throws {
    let location = try index.location()
    guard FileManager.default.fileExists(atPath: location.path) else {
      // Still check the query, so a typo is reported as such even before anything is indexed.
      _ = try parse(registry: .builtIn)
      printError("no index at \(location.path); create one with 'lumen index PATH'")
      throw ExitCode.failure
    }
    let searchable = try SearchableIndex(location: location, options: IndexOptions.reading)
    let registry = searchable.registry
    let expression = try parse(registry: registry)
    let options = try searchOptions(registry: registry)
    if count {
      let total = try await tooComplexIsAQueryError {
        try await searchable.count(expression, options: options)
      }
      print(total)
      return
    }
    // Taken before the first search, so that a commit made during it is not missed.
    let commits = live ? try IndexCommitMonitor(location: location) : nil
    let results = try await tooComplexIsAQueryError {
      try await searchable.search(expression, options: options)
    }
    let out = OutputStream()
    let separator: [UInt8] = nulSeparated ? [0] : [10]
    for result in results {
      if json {
        var object: [(String, JSONValue)] = [("id", .string(result.identifier))]
        if let path = result.path { object.append(("path", .string(FaithfulPath.display(path)))) }
        for key in options.fetchAttributes {
          object.append(
            (key.name, JSONValue(result.attributes[key] ?? [], multiValued: key.isMultiValued)))
        }
        out.write(JSONValue.object(object).line())
        out.write(bytes: separator)
      } else {
        out.write(bytes: FaithfulPath.encode(result.path ?? result.identifier))
        out.write(bytes: separator)
        for key in options.fetchAttributes {
          let values = result.attributes[key] ?? []
          let text = values.isEmpty ? "(null)" : values.map(\.description).joined(separator: ", ")
          out.write("   \(key.name) = \(text)")
          out.write(bytes: separator)
        }
      }
    }
    out.flush()
    if let commits {
      let query = LiveQuery(
        index: searchable, expression: expression, options: options, commits: commits,
        json: json, separator: separator)
      try await query.follow(from: Set(results.map(\.identifier)), output: out)
    }
  }

  /// A query the store will not plan (too many or too deeply nested comparisons) is the
  /// query's fault, so it is reported like a syntax error: the query, a caret, exit 2.
  private func tooComplexIsAQueryError<T>(_ body: () async throws -> T) async throws -> T {
    do {
      return try await body()
    } catch let error as SearchableIndexError {
      guard case .queryTooComplex = error else { throw error }
      let text = query.joined(separator: " ")
      FileHandle.standardError.write(Data("\(text)\n^\n\(error.description)\n".utf8))
      throw ExitCode(2)
    }
  }

  /// The query words (joined as mdfind does) and `--name`, combined with `&&`.
  private func parse(registry: AttributeRegistry) throws -> QueryExpression {
    let parser = QueryParser(registry: registry)
    var expression: QueryExpression? = nil
    if !query.isEmpty {
      let text = query.joined(separator: " ")
      do {
        expression = try parser.parse(text)
      } catch {
        FileHandle.standardError.write(Data((error.rendered + "\n").utf8))
        throw ExitCode(2)
      }
    }
    if let name {
      let pattern = TextPattern(segments: [.wildcard, .literal(name), .wildcard])
      let byName = QueryExpression.comparison(
        Comparison(
          attribute: .key(.fileName), op: .equal, value: .text(pattern),
          modifiers: [.caseInsensitive, .diacriticInsensitive]))
      expression = expression.map { .and($0, byName) } ?? byName
    }
    return expression ?? .constant(true)
  }

  private func searchOptions(registry: AttributeRegistry) throws -> SearchOptions {
    var keys: [AttributeKey] = []
    for name in attributes {
      guard let key = registry.key(named: name) else {
        throw ValidationError("unknown attribute '\(name)' in --attr")
      }
      keys.append(key)
    }
    var order = SearchOptions.Order.relevance
    if let sort {
      let descending = sort.hasPrefix("-")
      let name = descending ? String(sort.dropFirst()) : sort
      guard let key = registry.key(named: name) else {
        throw ValidationError("unknown attribute '\(name)' in --sort")
      }
      order = .attributes([.init(key, ascending: !descending)])
    }
    let folders = onlyIn.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    return SearchOptions(onlyIn: folders, limit: limit, order: order, fetchAttributes: keys)
  }
}
