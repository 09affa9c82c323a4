import Foundation
import Glibc
import LumenTestSupport
import Testing

/// `lumen watch` and `lumen find --live` through the real binary, as a person runs them: a
/// watcher in the background, changes made with plain system calls, and every test ending in an
/// index equal to what a fresh `lumen index` of the same tree gives.
///
/// Serialized: each test runs a watcher at idle priority, and the machine has few cores.
@Suite(.serialized) struct WatchCommandTests {
  /// A small tree: text files, folders, a hidden file, a git work tree with ignored output.
  static func makeTree(in lumen: LumenProcess) throws -> String {
    let root = lumen.home.appendingPathComponent("tree").path
    for (relative, text) in [
      ("Documents/notes.txt", "shopping list\n"), ("Documents/old/letter.txt", "dear ann\n"),
      ("Music/song.txt", "la la\n"), (".hidden/secret.txt", "s"),
      ("project/.git/HEAD", "ref: refs/heads/main\n"), ("project/.gitignore", "build/\n"),
      ("project/main.swift", "print(1)\n"), ("project/build/out.o", "obj"),
    ] {
      write(root + "/" + relative, text)
    }
    return root
  }

  /// Writes in place with system calls (no temporary file), creating folders as needed.
  static func write(_ path: String, _ text: String) {
    try? FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let descriptor = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o644)
    precondition(descriptor >= 0, "cannot write \(path)")
    _ = Glibc.write(descriptor, text, text.utf8.count)
    close(descriptor)
  }

  /// Starts `lumen watch` and waits until its first crawl is done. At normal priority unless
  /// `idle`: on a machine busy building, an idle-priority process may wait for minutes.
  static func startWatcher(
    _ lumen: LumenProcess, root: String, idle: Bool = false, extra: [String] = [],
    wrapper: [String] = []
  ) async throws -> BackgroundLumen {
    let watcher = try BackgroundLumen(
      lumen,
      ["watch", "--db", lumen.database] + (idle ? [] : ["--normal-priority"]) + extra + [root],
      wrapper: wrapper)
    try await eventually("the watcher is watching (\(watcher.stderr))") {
      try status(lumen)?.roots.first?.state == "watching"
    }
    return watcher
  }

  struct WatcherFile: Decodable {
    struct Root: Decodable {
      let path: String
      let state: String
    }
    let pid: Int32
    let roots: [Root]
    let watches: Int
    let watchLimit: Int?
    let unwatchedCount: Int
    let unwatchedFolders: [String]
    let overflows: Int
    let queueDepth: Int
  }

  /// The status file the watcher rewrites every second.
  static func status(_ lumen: LumenProcess) throws -> WatcherFile? {
    guard let data = FileManager.default.contents(atPath: lumen.database + ".watch.json") else {
      return nil
    }
    return try? JSONDecoder().decode(WatcherFile.self, from: data)
  }

  /// Every item of an index with the attributes a change could touch, one JSON line each.
  static func contents(_ lumen: LumenProcess, database: String) async throws -> Set<String> {
    let result = try await lumen.run(
      [
        "find", "--db", database, "--json", "--attr", "contentType", "--attr", "fileSize",
        "--attr", "contentModificationDate", "--attr", "fileMode", "--attr", "kind",
        "--attr", "title", "true",
      ])
    #expect(result.status == 0, "\(result.stderr)")
    return Set(result.lines)
  }

  /// Waits until the watcher's index holds what a fresh `lumen index` of `root` gives.
  static func expectConverges(
    _ lumen: LumenProcess, root: String, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let fresh = lumen.home.appendingPathComponent("fresh-\(UUID().uuidString).sqlite").path
    let indexed = try await lumen.run(["index", "--db", fresh, "--json", root])
    #expect(indexed.status == 0, "\(indexed.stderr)", sourceLocation: sourceLocation)
    let expected = try await contents(lumen, database: fresh)
    var actual: Set<String> = []
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
      actual = try await contents(lumen, database: lumen.database)
      if actual == expected { return }
      try await Task.sleep(for: .milliseconds(100))
    }
    #expect(
      actual == expected,
      """
      the watcher's index differs from a fresh index:
      only watcher: \(actual.subtracting(expected).sorted().prefix(5))
      only fresh: \(expected.subtracting(actual).sorted().prefix(5))
      """, sourceLocation: sourceLocation)
  }

  /// Polls `condition` until it holds. Generous by default: a whole test suite on two shared
  /// cores can make a process take tens of seconds to start; a passing run waits milliseconds.
  static func eventually(
    _ what: @autoclosure () -> String, timeout: Duration = .seconds(90),
    sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async throws -> Bool
  ) async throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if try await condition() { return }
      try await Task.sleep(for: .milliseconds(25))
    }
    Issue.record("timed out waiting until \(what())", sourceLocation: sourceLocation)
    throw TimedOut()
  }

  struct TimedOut: Error {}

  @Test func watchRunsAtIdleCPUAndIOPriority() async throws {
    let lumen = try LumenProcess()
    defer { lumen.cleanUp() }
    let root = try Self.makeTree(in: lumen)
    let watcher = try BackgroundLumen(lumen, ["watch", "--db", lumen.database, root])
    defer { watcher.stop() }
    // Asked of the kernel, not of the watcher: an idle-priority process on a busy machine may
    // not run again for a long while.
    func policy(_ sched: String?) -> String? {
      sched?.split(separator: "\n").first { $0.hasPrefix("policy") }?.split(separator: ":").last?
        .trimmingCharacters(in: .whitespaces)
    }
    func threadPolicies() -> [String: String?] {
      let threads =
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(watcher.pid)/task")) ?? []
      var policies: [String: String?] = [:]
      for thread in threads {
        // A thread may end meanwhile.
        guard
          let sched = try? String(
            contentsOfFile: "/proc/\(watcher.pid)/task/\(thread)/sched", encoding: .utf8)
        else { continue }
        policies[thread] = policy(sched)
      }
      return policies
    }
    // Every thread, not only the main one.
    try await Self.eventually("every thread is at SCHED_IDLE (\(threadPolicies()))") {
      let policies = threadPolicies()
      return policies.count > 1 && policies.values.allSatisfy { $0 == "5" }
    }
    let chrt = try await TemporaryTreeRunner.run("/usr/bin/chrt", ["-p", "\(watcher.pid)"])
    #expect(chrt.contains("SCHED_IDLE"), "\(chrt)")
    let ionice = try await TemporaryTreeRunner.run("/usr/bin/ionice", ["-p", "\(watcher.pid)"])
    #expect(ionice.trimmingCharacters(in: .whitespacesAndNewlines) == "idle")
  }

  @Test func watchFollowsChangesAloneAndStopsCleanly() async throws {
    let lumen = try LumenProcess()
    defer { lumen.cleanUp() }
    let root = try Self.makeTree(in: lumen)
    let watcher = try await Self.startWatcher(lumen, root: root)
    defer { watcher.stop() }

    // One watcher per index.
    let second = try await lumen.run(["watch", "--db", lumen.database, root])
    #expect(second.status == 1)
    #expect(second.stderr.contains("process \(watcher.pid)"), "\(second.stderr)")
    let reset = try await lumen.run(["reset", "--yes", "--db", lumen.database])
    #expect(reset.status == 1)
    #expect(reset.stderr.contains("lumen watch (process \(watcher.pid))"), "\(reset.stderr)")

    let status = try await lumen.run(["status", "--db", lumen.database, "--json"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: status.stdout) as? [String: Any])
    let section = try #require(object["watcher"] as? [String: Any])
    #expect(section["pid"] as? Int == Int(watcher.pid))
    #expect((section["watches"] as? Int ?? 0) >= 5, "root, Documents, old, Music, project")
    #expect((section["watchLimit"] as? Int ?? 0) > 0)
    for key in ["queueDepth", "unwatchedFolders", "eventsPerSecond", "lastError", "roots"] {
      #expect(section.keys.contains(key), "status --json lacks watcher.\(key)")
    }
    let text = try await lumen.run(["status", "--db", lumen.database])
    #expect(text.output.contains("Watcher:       running (pid \(watcher.pid))"))

    // Changes of every kind.
    Self.write(root + "/Documents/new.txt", "fresh\n")
    Self.write(root + "/Projects/app/src/main.txt", "code\n")
    Self.write(root + "/Music/song.txt", "la la la, longer\n")
    #expect(rename(root + "/Documents/old", root + "/Archive") == 0)
    #expect(rename(root + "/Documents/notes.txt", root + "/Documents/list.txt") == 0)
    Self.write(root + "/Documents/.list.txt.swp", "shopping list\nmilk\n")
    #expect(rename(root + "/Documents/.list.txt.swp", root + "/Documents/list.txt") == 0)
    #expect(unlink(root + "/project/main.swift") == 0)
    #expect(rename(root + "/Music", lumen.home.appendingPathComponent("moved-out").path) == 0)
    try await Self.expectConverges(lumen, root: root)

    watcher.signal(SIGTERM)
    #expect(try await watcher.waitForExit() == 0, "\(watcher.stderr)")
    #expect(!FileManager.default.fileExists(atPath: lumen.database + ".watch.json"))
    let after = try await lumen.run(["status", "--db", lumen.database, "--json"])
    let afterObject = try JSONSerialization.jsonObject(with: after.stdout) as? [String: Any]
    #expect(afterObject?["watcher"] is NSNull)
  }

  @Test func findLivePrintsChangesAsTheWatcherCommitsThem() async throws {
    let lumen = try LumenProcess()
    defer { lumen.cleanUp() }
    let root = try Self.makeTree(in: lumen)
    let watcher = try await Self.startWatcher(lumen, root: root)
    defer { watcher.stop() }
    let query = "kMDItemFSName == \"*.txt\""
    let live = try BackgroundLumen(lumen, ["find", "--live", "--db", lumen.database, query])
    defer { live.stop() }
    let json = try BackgroundLumen(
      lumen, ["find", "--live", "--json", "--db", lumen.database, query])
    defer { json.stop() }
    try await Self.eventually("the current results are printed") {
      live.lines.contains(root + "/Documents/notes.txt") && json.lines.count == 3
    }
    Self.write(root + "/Documents/added.txt", "new")
    try await Self.eventually("'+' for the new file (\(live.lines))") {
      live.lines.contains("+ " + root + "/Documents/added.txt")
    }
    #expect(unlink(root + "/Music/song.txt") == 0)
    try await Self.eventually("'-' for the deleted file (\(live.lines))") {
      live.lines.contains("- " + root + "/Music/song.txt")
    }
    #expect(rename(root + "/Documents/notes.txt", root + "/Documents/notes.md") == 0)
    try await Self.eventually("a rename out of the query") {
      live.lines.contains("- " + root + "/Documents/notes.txt")
    }
    try await Self.eventually("JSON events (\(json.lines))") {
      let events = json.lines.compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }.filter { $0["event"] != nil }
      return events.contains {
        $0["event"] as? String == "added" && $0["path"] as? String == root + "/Documents/added.txt"
      } && events.contains { $0["event"] as? String == "removed" }
    }
    #expect(!live.lines.contains { $0.contains("added.txt") && $0.hasPrefix("-") })
    live.signal(SIGINT)
    #expect(try await live.waitForExit() == 0)
    json.signal(SIGTERM)
    #expect(try await json.waitForExit() == 0)
    #expect(
      try await lumen.run(["find", "--live", "--count", "--db", lumen.database, "true"]).status
        == 64)
  }

  @Test func aQueueOverflowEndsInTheStateOfAFreshIndex() async throws {
    let lumen = try LumenProcess()
    defer { lumen.cleanUp() }
    let root = try Self.makeTree(in: lumen)
    Self.write(root + "/a.txt", "a")
    Self.write(root + "/b.txt", "b")
    let watcher = try await Self.startWatcher(lumen, root: root)
    defer { watcher.stop() }
    // A stopped watcher reads nothing, so the kernel's queue fills up and overflows.
    watcher.signal(SIGSTOP)
    try await Self.eventually("the watcher is stopped") { watcher.state == "T" }
    Self.write(root + "/Documents/lost.txt", "made while nobody listened")
    #expect(rename(root + "/Documents/old", root + "/Archive") == 0)
    #expect(unlink(root + "/Music/song.txt") == 0)
    let limit =
      (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))
      .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 16384
    for round in 0...(limit / 2 + 1000) {
      chmod(root + "/a.txt", round % 2 == 0 ? 0o640 : 0o644)
      chmod(root + "/b.txt", round % 2 == 0 ? 0o640 : 0o644)
    }
    let stateBeforeContinuing = watcher.state
    watcher.signal(SIGCONT)
    try await Self.eventually(
      "the overflow is reported (\(watcher.stderr)) \(String(describing: try? Self.status(lumen))) \(stateBeforeContinuing) \(watcher.state)"
    ) {
      (try Self.status(lumen)?.overflows ?? 0) >= 1
    }
    try await Self.expectConverges(lumen, root: root)
    watcher.signal(SIGTERM)
    #expect(try await watcher.waitForExit() == 0)
  }

  /// The real ENOSPC: the watcher runs in a user namespace of its own whose watch limit
  /// (`/proc/sys/user/max_inotify_watches`, enforced by the kernel together with the global
  /// one) is set to 3, so no other process on the machine is affected.
  @Test func theWatchLimitLeavesFoldersToThePeriodicRescan() async throws {
    let unshare = "/usr/bin/unshare"
    try #require(FileManager.default.isExecutableFile(atPath: unshare), "util-linux's unshare")
    let lumen = try LumenProcess()
    defer { lumen.cleanUp() }
    let root = try Self.makeTree(in: lumen)
    for name in ["a", "b", "c", "d"] { Self.write(root + "/More/\(name)/x.txt", name) }
    let watcher = try await Self.startWatcher(
      lumen, root: root, extra: ["--rescan-interval", "1"],
      wrapper: [
        unshare, "--user", "--map-root-user", "/bin/sh", "-c",
        "echo 3 > /proc/sys/user/max_inotify_watches && exec \"$0\" \"$@\"",
      ])
    defer { watcher.stop() }
    let status = try #require(try Self.status(lumen))
    #expect(status.watches == 3)
    #expect(status.watchLimit == 3)
    #expect(status.unwatchedCount >= 4)
    #expect(watcher.stderr.contains("fs.inotify.max_user_watches"), "\(watcher.stderr)")
    let text = try await lumen.run(["status", "--db", lumen.database])
    #expect(text.output.contains("Unwatched:"), "\(text.output)")
    // A change in a folder nobody watches arrives with the next rescan.
    let folder = try #require(status.unwatchedFolders.last)
    Self.write(folder + "/made-later.txt", "later")
    try await Self.expectConverges(lumen, root: root)
    watcher.signal(SIGTERM)
    #expect(try await watcher.waitForExit() == 0)
  }

  /// Issue 6: a watcher killed with SIGKILL in the middle of a flood of changes leaves an
  /// index that passes `integrity_check`, and the next watcher brings it to exactly what a
  /// fresh crawl gives (its lock and status files are stale, not in the way).
  @Test func aWatcherKilledDuringChangesLeavesAnIndexTheNextOneCompletes() async throws {
    let lumen = try LumenProcess()
    defer { lumen.cleanUp() }
    let root = try Self.makeTree(in: lumen)
    var random = SeededRandom(seed: 11)
    for round in 0..<4 {
      let watcher = try await Self.startWatcher(lumen, root: root)
      // Changes of every kind, made on a thread of their own while the kill is timed.
      let changes = Task.detached {
        for index in 0..<200 {
          Self.write(root + "/flood-\(round)/file-\(index).txt", "round \(round) file \(index)\n")
          if index % 10 == 0 {
            Self.write(root + "/Documents/notes.txt", "version \(round).\(index)\n")
          }
        }
        _ = rename(root + "/flood-\(round)", root + "/moved-\(round)")
        if round > 0 { _ = unlink(root + "/moved-\(round - 1)/file-0.txt") }
      }
      let delay = UInt32.random(in: 5_000...150_000, using: &random)
      try await OffThePool.run { usleep(delay) }
      watcher.signal(SIGKILL)
      _ = try await watcher.waitForExit()
      await changes.value
      #expect(
        try IndexFile(path: lumen.database).integrity() == "ok",
        "round \(round): killed after \(delay / 1000) ms")
    }
    let last = try await Self.startWatcher(lumen, root: root)
    try await Self.expectConverges(lumen, root: root)
    last.signal(SIGTERM)
    #expect(try await last.waitForExit() == 0)
  }
}

/// Runs a program and returns its output (`TemporaryTree.run` lives in another test target).
enum TemporaryTreeRunner {
  static func run(_ executable: String, _ arguments: [String]) async throws -> String {
    try await OffThePool.run { try runBlocking(executable, arguments) }
  }

  private static func runBlocking(_ executable: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }
}
