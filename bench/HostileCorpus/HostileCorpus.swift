import Foundation

/// Writes the hostile and broken input corpus of issue 6 into a folder, deterministically for
/// a seed, and prints what it made as JSON lines. Used by the CLI tests and bench/faults; no
/// hostile binary is committed, every one is generated here from the shared corpus or by hand.
///
///     HostileCorpus DIR [--corpus PATH] [--seed N] [--canary PATH] [--bomb-mib N]
///                       [--sparse-mib N]
@main
struct HostileCorpus {
  static func main() throws {
    var arguments = Array(CommandLine.arguments.dropFirst())
    func option(_ name: String) -> String? {
      guard let at = arguments.firstIndex(of: name), at + 1 < arguments.count else { return nil }
      defer { arguments.removeSubrange(at...(at + 1)) }
      return arguments[at + 1]
    }
    let corpus = option("--corpus") ?? Self.defaultCorpus()
    let seed = option("--seed").flatMap { UInt64($0) } ?? 6
    let bombMiB = option("--bomb-mib").flatMap { Int($0) } ?? 256
    let sparseMiB = option("--sparse-mib").flatMap { Int64($0) } ?? 1024
    guard let root = arguments.first else {
      FileHandle.standardError.write(
        Data(
          "usage: HostileCorpus DIR [--corpus PATH] [--seed N] [--canary PATH] [--bomb-mib N] [--sparse-mib N]\n"
            .utf8))
      exit(2)
    }
    let canary = option("--canary") ?? (root as NSString).deletingLastPathComponent + "/canary.txt"
    try Data((DocumentFiles.canaryText + "\n").utf8).write(to: URL(fileURLWithPath: canary))

    let folder = try CorpusFolder(root: root)
    var random = SeededRandom(seed: seed)
    try ImageFiles(folder: folder, corpus: corpus).make(random: &random)
    try MusicFiles(folder: folder, corpus: corpus).make(random: &random)
    try DocumentFiles(folder: folder, canary: canary, bombBytes: bombMiB << 20).make()
    try SpecialFiles(folder: folder, corpus: corpus).make(sparseBytes: sparseMiB << 20)

    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    for entry in folder.made {
      let line = try encoder.encode(["path": entry.path, "kind": entry.kind])
      print(String(decoding: line, as: UTF8.self))
    }
    for entry in folder.skipped {
      let line = try encoder.encode(["path": entry.path, "skipped": entry.reason])
      print(String(decoding: line, as: UTF8.self))
    }
  }

  /// ../shared/corpus beside the package, found from this file.
  static func defaultCorpus() -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("shared/corpus").path
  }
}
