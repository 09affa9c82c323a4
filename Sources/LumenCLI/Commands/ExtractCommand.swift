import ArgumentParser
import Foundation
import LumenExtract
import LumenModel

/// `lumen extract`: what Lumen would index for a file, without touching the index (as
/// `mdimport -t -d` shows), and which rule chose the extractor.
struct ExtractCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "extract",
    abstract: "Show what would be indexed for files.")

  @Flag(help: "Print one JSON object per file.")
  var json = false

  @Argument(help: "Files to read.")
  var files: [String]

  func run() async throws {
    let rules: LoadedRules
    do { rules = try LoadedRules.load() } catch { throw ExitCode.failure }
    let sniffer = Sniffer(registry: rules.contentTypes)
    let service = ExtractionService(rules: rules.extraction)
    let out = OutputStream()
    var failed = false
    for file in files {
      let path = URL(fileURLWithPath: file).standardizedFileURL.path
      let sniffed: Sniffer.Result
      do {
        sniffed = try sniff(path, with: sniffer)
      } catch {
        printError("\(file): \(error)")
        failed = true
        continue
      }
      let result = service.extract(
        ExtractionJob(path: path, mimeType: sniffed.mimeType, contentType: sniffed.contentType))
      var attributes = result.outcome?.attributes ?? AttributeSet()
      attributes.set(.text(sniffed.contentType), for: .contentType)
      attributes.set(
        rules.contentTypes.tree(of: sniffed.contentType).map(AttributeValue.text),
        for: .contentTypeTree)
      let keys = attributes.orderedKeys
      if json {
        var object: [(String, JSONValue)] = [
          ("path", .string(FaithfulPath.display(path))), ("mimeType", .string(sniffed.mimeType)),
        ]
        if let rule = result.rule { object.append(("rule", .string(rule.source.description))) }
        if let extractor = result.extractor {
          object.append(("extractor", .string("\(extractor.name) \(extractor.version)")))
        }
        let problems = (result.outcome?.problems ?? []) + result.failures.map { "\($0)" }
        if !problems.isEmpty { object.append(("problems", .array(problems.map(JSONValue.string)))) }
        object.append(
          (
            "attributes",
            .object(
              keys.map {
                ($0.name, JSONValue(attributes[$0] ?? [], multiValued: $0.isMultiValued))
              })
          ))
        out.write(JSONValue.object(object).line() + "\n")
      } else {
        out.write("\(FaithfulPath.display(path))\n")
        out.write("  MIME type: \(sniffed.mimeType) (\(sniffed.method.rawValue))\n")
        if let rule = result.rule, let extractor = result.extractor {
          out.write(
            "  Extractor: \(extractor.name) \(extractor.version), chosen by \(rule.source)\n")
        } else if result.candidates.isEmpty {
          out.write("  Extractor: none (no rule matches \(sniffed.mimeType))\n")
        } else {
          out.write("  Extractor: none succeeded\n")
        }
        for problem in (result.outcome?.problems ?? []) + result.failures.map({ "\($0)" }) {
          out.write("  Problem: \(problem)\n")
        }
        let item = ItemListing(
          item: .init(
            identifier: path, domainIdentifier: nil, attributes: attributes, expirationDate: nil),
          keys: keys)
        out.write(
          item.text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(
            separator: "\n"))
      }
    }
    out.flush()
    if failed { throw ExitCode.failure }
  }

  private func sniff(_ path: String, with sniffer: Sniffer) throws -> Sniffer.Result {
    var status = stat()
    guard lstat(path, &status) == 0 else { throw SniffFailure(String(cString: strerror(errno))) }
    guard status.st_mode & S_IFMT == S_IFREG else { throw SniffFailure("not a regular file") }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    guard descriptor >= 0 else { throw SniffFailure(String(cString: strerror(errno))) }
    defer { close(descriptor) }
    return try sniffer.sniff(openFile: descriptor, name: (path as NSString).lastPathComponent)
  }
}

struct SniffFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
