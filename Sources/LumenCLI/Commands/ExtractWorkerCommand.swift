import ArgumentParser
import Foundation
import LumenCrawl

/// `lumen __extract-worker`: the extraction worker `lumen index` starts (not for people, so
/// hidden from help). Jobs arrive on standard input and results leave on standard output as
/// length-prefixed frames; see `ExtractionWorker`. `--probe DIR` instead confines itself as a
/// worker does and reports, as one JSON object, what it could still do: the tests and
/// `lumen status` use it to show what the sandbox holds.
struct ExtractWorkerCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "__extract-worker",
    abstract: "Run as an extraction worker of lumen index (internal).",
    shouldDisplay: false)

  @Option(
    help: ArgumentHelp(
      "Confine as a worker, then try to open a socket and write in DIR; print the outcome.",
      valueName: "dir"))
  var probe: String?

  func run() throws {
    guard let probe else {
      throw ExitCode(ExtractionWorker.run())
    }
    let readable = probe + "/probe-readable"
    _ = FileManager.default.createFile(atPath: readable, contents: Data("lumen\n".utf8))
    let (report, outcomes) = ExtractionWorker.probe(folder: probe, readable: readable)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    struct Probe: Encodable {
      let confinement: ConfinementReport
      let attempts: [String: String]
    }
    let data = try encoder.encode(Probe(confinement: report, attempts: outcomes))
    print(String(decoding: data, as: UTF8.self))
  }
}
