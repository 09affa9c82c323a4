import ArgumentParser
import Foundation
import LumenExtract
import LumenModel

/// `lumen rules`: the extraction rules and content types in force, each with the file and line
/// it came from (as `mdimport -L` lists importers), so a user override is easy to check.
struct RulesCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "rules",
    abstract: "List the rules and content types loaded.")

  @Flag(help: "Print JSON Lines: one object per rule or content type, with 'kind' and 'file'.")
  var json = false

  func run() async throws {
    let rules: LoadedRules
    do { rules = try LoadedRules.load() } catch { throw ExitCode.failure }
    let out = OutputStream()
    if !json {
      out.write("Rule folders:\n")
      for directory in rules.directories { out.write("  \(directory)\n") }
      out.write("\nExtraction rules (tried in this order):\n")
    }
    for rule in rules.extraction.rules {
      if json {
        var object: [(String, JSONValue)] = [
          ("kind", .string("rule")), ("file", .string(rule.source.description)),
          ("extractor", .string(rule.extractor)),
          ("mimeTypes", .array(rule.mimeTypes.map { .string($0.description) })),
        ]
        if !rule.blockMimeTypes.isEmpty {
          object.append(
            ("blockMimeTypes", .array(rule.blockMimeTypes.map { .string($0.description) })))
        }
        if let type = rule.contentType { object.append(("contentType", .string(type))) }
        object.append(("priority", .number(Double(rule.priority))))
        object.append(("maxBytes", .number(Double(rule.limits.maxBytes))))
        if let pages = rule.limits.maxPages { object.append(("maxPages", .number(Double(pages)))) }
        object.append(("timeout", .number(rule.limits.timeoutSeconds)))
        out.write(JSONValue.object(object).line() + "\n")
      } else {
        let types = rule.mimeTypes.map(\.description).joined(separator: ";")
        out.write(
          "  \(rule.extractor.padding(toLength: 8, withPad: " ", startingAt: 0)) \(types)  (\(rule.source))\n"
        )
      }
    }
    if !json { out.write("\nContent types:\n") }
    for declaration in rules.contentTypes.declarations.values.sorted(by: {
      $0.identifier < $1.identifier
    }) {
      if json {
        out.write(
          JSONValue.object([
            ("kind", .string("contentType")), ("file", .string(declaration.source)),
            ("identifier", .string(declaration.identifier)),
            ("conformsTo", .array(declaration.conformsTo.map(JSONValue.string))),
            ("mimeTypes", .array(declaration.mimeTypes.map(JSONValue.string))),
            ("extensions", .array(declaration.extensions.map(JSONValue.string))),
          ]).line() + "\n")
      } else {
        let parents = declaration.conformsTo.joined(separator: ", ")
        out.write("  \(declaration.identifier) → \(parents)  (\(declaration.source))\n")
      }
    }
    out.flush()
  }
}
