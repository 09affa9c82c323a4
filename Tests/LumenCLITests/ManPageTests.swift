import Foundation
import LumenModel
import LumenTestSupport
import Testing

/// The man pages are part of what Lumen ships, so they are checked like code: every page renders
/// with the `man` a user has, without a single groff or tbl warning; lumen(1) lists no command
/// without a page; the attribute table of lumen-query(7) is the attribute registry; and every
/// command and option the built `lumen` offers is documented.
@Suite struct ManPageTests {
  /// The package root, found from this file (Tests/LumenCLITests/ManPageTests.swift).
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let manFolder = packageRoot.appendingPathComponent("man")

  /// Every page in man/: files named `name.N` with N a section digit.
  static let pageNames: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: manFolder.path)) ?? []
    return names.filter {
      $0.range(of: #"^[a-z0-9.-]+\.[1-9]$"#, options: .regularExpression) != nil
    }
    .sorted()
  }()

  @Test func manFolderHoldsTheMainPages() {
    for page in ["lumen.1", "lumen-query.7", "lumen-config.5"] {
      #expect(Self.pageNames.contains(page), "man/\(page) is missing")
    }
  }

  @Test(arguments: pageNames)
  func pageRendersWithoutWarnings(page: String) async throws {
    let man = try #require(
      Self.executable(named: "man"),
      "man is not installed: apt-get install man-db groff-base (see scripts/apt-packages.txt)")
    let result = try await Self.run(
      man, ["--warnings=w", "-l", "-P", "cat", Self.manFolder.appendingPathComponent(page).path],
      environment: ["MANWIDTH": "80", "LC_ALL": "C.UTF-8", "MAN_DISABLE_SECCOMP": "1"])
    #expect(result.status == 0, "man exited with \(result.status) on \(page)")
    #expect(
      result.standardError.isEmpty, "warnings rendering man/\(page):\n\(result.standardError)")
    let hasName = result.standardOutput.contains("NAME")
    #expect(hasName, "man/\(page) rendered without a NAME section")
  }

  /// Each command named in the COMMANDS section of lumen(1) (`.BR lumen\-find (1)`) has its page,
  /// and that page is about that command.
  @Test func everyCommandListedInLumen1HasItsOwnPage() throws {
    let commands = try Self.commandsListed(inSection: "COMMANDS", of: "lumen.1")
    #expect(commands.count >= 10, "lumen(1) lists only \(commands)")
    for command in commands {
      let page = "lumen-\(command).1"
      guard Self.pageNames.contains(page) else {
        Issue.record("lumen(1) lists '\(command)' but man/\(page) does not exist")
        continue
      }
      let source = try Self.source(of: page)
      let namesIt = source.contains("lumen\\-\(command) \\- ")
      #expect(namesIt, "man/\(page) has no NAME line for it")
    }
  }

  /// lumen-query(7) tables every built-in attribute with its kMDItem name, type and the M
  /// (multi-valued) and F (free text) marks, exactly as the registry declares it.
  @Test func queryPageTablesEveryBuiltInAttribute() throws {
    let rows = try Self.attributeRows()
    for key in AttributeKey.builtIns {
      guard let row = rows[key.name] else {
        Issue.record("lumen-query(7) has no row for '\(key.name)'")
        continue
      }
      #expect(row.mdItemName == (key.mdItemName ?? "\\(em"), "kMDItem name of \(key.name)")
      #expect(row.type == "\(key.valueType)", "type of \(key.name)")
      #expect(row.marks.contains("M") == key.isMultiValued, "M mark of \(key.name)")
      #expect(row.marks.contains("F") == key.isSearchableByDefault, "F mark of \(key.name)")
    }
    let documented = Set(rows.keys)
    let declared = Set(AttributeKey.builtIns.map(\.name))
    #expect(documented.subtracting(declared).isEmpty, "rows for attributes that do not exist")
  }

  /// Every subcommand the built `lumen` offers has a page listed in lumen(1), and every option of
  /// every command appears in its page.
  @Test func everyCommandAndOptionOfTheBinaryIsDocumented() async throws {
    let lumen = try #require(
      Self.builtLumen(), "no lumen executable beside the test bundle: build it with swift build")
    let listed = try Self.commandsListed(inSection: "COMMANDS", of: "lumen.1")
    let help = try await Self.run(lumen, ["--help"])
    #expect(help.status == 0, "lumen --help exited with \(help.status)")
    #expect(help.standardOutput.contains("USAGE:"), "lumen --help printed no usage")
    for command in Self.subcommands(inHelp: help.standardOutput) {
      #expect(listed.contains(command), "lumen(1) does not list '\(command)'")
      let page = "lumen-\(command).1"
      guard Self.pageNames.contains(page) else {
        Issue.record("lumen has the command '\(command)' but man/\(page) does not exist")
        continue
      }
      try await Self.expectOptionsDocumented(lumen, commandPath: [command], page: page)
    }
  }

  // MARK: Reading the pages

  static func source(of page: String) throws -> String {
    try String(contentsOf: manFolder.appendingPathComponent(page), encoding: .utf8)
  }

  /// The page's text between `.SH name` and the next `.SH`.
  static func section(_ name: String, of page: String) throws -> String {
    let lines = try source(of: page).split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(where: { $0 == ".SH \(name)" || $0 == ".SH \"\(name)\"" })
    else { return "" }
    let rest = lines[(start + 1)...]
    let end = rest.firstIndex(where: { $0.hasPrefix(".SH") }) ?? rest.endIndex
    return rest[..<end].joined(separator: "\n")
  }

  static func commandsListed(inSection name: String, of page: String) throws -> [String] {
    let text = try section(name, of: page)
    let pattern = try NSRegularExpression(
      pattern: #"^\.BR lumen\\-([a-z]+) \(1\)"#, options: [.anchorsMatchLines])
    let range = NSRange(text.startIndex..., in: text)
    return pattern.matches(in: text, range: range).compactMap {
      Range($0.range(at: 1), in: text).map { String(text[$0]) }
    }
  }

  struct AttributeRow {
    let mdItemName: String
    let type: String
    let marks: [Substring]
  }

  /// The rows `name|kMDItem name|type|marks` of the tables in the ATTRIBUTES section.
  static func attributeRows() throws -> [String: AttributeRow] {
    var rows: [String: AttributeRow] = [:]
    for line in try section("ATTRIBUTES", of: "lumen-query.7").split(separator: "\n") {
      let cells = line.split(separator: "|", omittingEmptySubsequences: false)
      guard cells.count == 4, cells[0] != "Name" else { continue }
      rows[String(cells[0])] = AttributeRow(
        mdItemName: String(cells[1]), type: String(cells[2]), marks: cells[3].split(separator: " "))
    }
    return rows
  }

  // MARK: Reading the binary's help

  /// The `lumen` built beside the test bundle (both live in the build folder, e.g. .build/debug).
  static func builtLumen() -> URL? {
    let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var folder = testBinary.deletingLastPathComponent()
    // On platforms that wrap tests in a bundle folder, step out of it.
    if folder.pathExtension == "xctest" { folder = folder.deletingLastPathComponent() }
    let lumen = folder.appendingPathComponent("lumen")
    return FileManager.default.isExecutableFile(atPath: lumen.path) ? lumen : nil
  }

  /// The names under `SUBCOMMANDS:` in swift-argument-parser's help.
  static func subcommands(inHelp help: String) -> [String] {
    var names: [String] = []
    var inList = false
    for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("SUBCOMMANDS:") {
        inList = true
        continue
      }
      guard inList else { continue }
      if line.trimmingCharacters(in: .whitespaces).isEmpty || !line.hasPrefix("  ") { break }
      // A wrapped abstract continues on a line indented past the name column.
      if line.hasPrefix("   ") { continue }
      let word = line.split(separator: " ").first.map(String.init) ?? ""
      if word.range(of: #"^[a-z][a-z-]*$"#, options: .regularExpression) != nil, word != "help" {
        names.append(word)
      }
    }
    return names
  }

  /// Checks the options of `lumen <commandPath> --help` against `page`, descending into nested
  /// subcommands (`lumen items add`), which share their parent's page.
  static func expectOptionsDocumented(_ lumen: URL, commandPath: [String], page: String)
    async throws
  {
    let help = try await run(lumen, commandPath + ["--help"])
    let name = "lumen " + commandPath.joined(separator: " ")
    #expect(help.status == 0, "\(name) --help exited with \(help.status)")
    let text = try source(of: page).replacingOccurrences(of: "\\-", with: "-")
    // Computed before #expect so a failure prints the option, not the whole page.
    let undocumented = options(inHelp: help.standardOutput).filter { !text.contains($0) }
    #expect(undocumented.isEmpty, "\(name) has \(undocumented.sorted()), not in man/\(page)")
    for subcommand in subcommands(inHelp: help.standardOutput) {
      let described = text.contains("\(name) \(subcommand)")
      #expect(described, "man/\(page) does not describe \(name) \(subcommand)")
      try await expectOptionsDocumented(lumen, commandPath: commandPath + [subcommand], page: page)
    }
  }

  /// The `--long` and `-x` names in the signatures (`  --db <path>`, `  -0`) listed under
  /// `OPTIONS:`, less help and version, which every command has.
  static func options(inHelp help: String) -> Set<String> {
    var found: Set<String> = []
    var inList = false
    for line in help.split(separator: "\n") {
      if line.hasSuffix(":"), !line.hasPrefix(" ") {
        inList = line == "OPTIONS:"
        continue
      }
      let trimmed = line.drop { $0 == " " }
      guard inList, trimmed.hasPrefix("-") else { continue }
      let signature = trimmed.components(separatedBy: "  ")[0]
      for word in signature.split(whereSeparator: { " ,=<>[]".contains($0) })
      where word.range(of: #"^(--[a-z0-9][a-z0-9-]*|-[a-zA-Z0-9])$"#, options: .regularExpression)
        != nil
      {
        found.insert(String(word))
      }
    }
    return found.subtracting(["--help", "-h", "--version"])
  }

  // MARK: Running programs

  static func executable(named name: String) -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin"] {
      let candidate = URL(fileURLWithPath: folder).appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
  }

  struct RunResult {
    let status: Int32
    let standardOutput: String
    let standardError: String
  }

  /// Runs a program to completion with its output in temporary files, so neither stream can fill
  /// a pipe and stall it.
  static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:])
    async throws -> RunResult
  {
    try await OffThePool.run { try runBlocking(executable, arguments, environment: environment) }
  }

  private static func runBlocking(
    _ executable: URL, _ arguments: [String], environment: [String: String]
  ) throws -> RunResult {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("lumen-manpage-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let outURL = folder.appendingPathComponent("out")
    let errURL = folder.appendingPathComponent("err")
    FileManager.default.createFile(atPath: outURL.path, contents: nil)
    FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = out
    process.standardError = err
    try process.run()
    process.waitUntilExit()
    try out.close()
    try err.close()
    return RunResult(
      status: process.terminationStatus,
      standardOutput: try String(contentsOf: outURL, encoding: .utf8),
      standardError: try String(contentsOf: errURL, encoding: .utf8))
  }
}
