import ArgumentParser
import Foundation
import LumenModel
import LumenStore

/// `lumen show`: mdls for Lumen, every attribute of an item.
struct ShowCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "show",
    abstract: "Print every attribute of indexed items.",
    discussion: """
      Each argument is a path (a file item) or an item identifier. Paths are made absolute.
      """)

  @OptionGroup var index: IndexOptions

  @Flag(help: "Print one JSON object per item, keyed by Core Spotlight names.")
  var json = false

  @Option(
    name: .customLong("name"),
    help: ArgumentHelp(
      "Print only this attribute (repeatable).", valueName: "key"))
  var names: [String] = []

  @Argument(help: "Paths or identifiers.")
  var items: [String]

  func run() async throws {
    let location = try index.location()
    guard FileManager.default.fileExists(atPath: location.path) else {
      printError("no index at \(location.path); create one with 'lumen index PATH'")
      throw ExitCode.failure
    }
    let searchable = try SearchableIndex(location: location, options: IndexOptions.reading)
    let registry = searchable.registry
    let only = try names.map { name -> AttributeKey in
      guard let key = registry.key(named: name) else {
        throw ValidationError("unknown attribute '\(name)' in --name")
      }
      return key
    }
    var missing = 0
    let out = OutputStream()
    for argument in items {
      guard let item = try await lookUp(argument, in: searchable) else {
        printError("\(argument): not in the index")
        missing += 1
        continue
      }
      let keys = only.isEmpty ? item.attributes.orderedKeys : only
      if json {
        var object: [(String, JSONValue)] = [("id", .string(FaithfulPath.display(item.identifier)))]
        if let path = item.path { object.append(("path", .string(FaithfulPath.display(path)))) }
        if let domain = item.domainIdentifier { object.append(("domain", .string(domain))) }
        if let expiration = item.expirationDate {
          object.append(("expirationDate", .string(ISO8601Dates.format(expiration))))
        }
        for key in keys {
          object.append(
            (key.name, JSONValue(item.attributes[key] ?? [], multiValued: key.isMultiValued)))
        }
        out.write(JSONValue.object(object).line() + "\n")
      } else {
        out.write(ItemListing(item: item, keys: keys).text)
      }
    }
    out.flush()
    if missing > 0 { throw ExitCode.failure }
  }

  /// A path names a file item (its identifier is the absolute path); anything else is tried
  /// as an identifier as given.
  private func lookUp(_ argument: String, in searchable: SearchableIndex) async throws
    -> StoredItem?
  {
    if let item = try await searchable.item(withIdentifier: argument) { return item }
    let absolute = URL(fileURLWithPath: argument).standardizedFileURL.path
    if absolute != argument, let item = try await searchable.item(withIdentifier: absolute) {
      return item
    }
    return nil
  }
}

/// The mdls-style text form: one `name = value` line per attribute, lists in parentheses.
struct ItemListing {
  let item: StoredItem
  let keys: [AttributeKey]

  var text: String {
    let width = max(24, keys.map(\.name.count).max() ?? 0)
    var lines = ["\(FaithfulPath.display(item.identifier))"]
    for key in keys {
      let label = key.name.padding(toLength: width, withPad: " ", startingAt: 0)
      guard let values = item.attributes[key], !values.isEmpty else {
        lines.append("  \(label) = (null)")
        continue
      }
      if key.isMultiValued {
        lines.append("  \(label) = (")
        for (index, value) in values.enumerated() {
          lines.append("      \(render(value))" + (index < values.count - 1 ? "," : ""))
        }
        lines.append("  )")
      } else {
        lines.append("  \(label) = \(render(values[0]))")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private func render(_ value: AttributeValue) -> String {
    switch value {
    case .text(var s):
      if s.utf8.count > 400 { s = String(s.prefix(400)) + "…" }
      let escaped = FaithfulPath.display(s).replacingOccurrences(of: "\\", with: "\\\\")
        .replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
      return "\"\(escaped)\""
    case .number, .bool: return value.description
    case .date(let d): return ISO8601Dates.format(d)
    }
  }
}
