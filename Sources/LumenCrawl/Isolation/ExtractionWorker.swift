import CSandbox
import Foundation
import Glibc
import LumenExtract

/// The worker side of isolated extraction (`lumen __extract-worker`): reads a hello and then
/// jobs from standard input, runs the rule chain on each, and writes the results to standard
/// output, one length-prefixed frame each (see `FrameCodec`). A crash, a hang or a memory
/// blow-up in libexif, TagLib, qpdf or libxml2 ends this process, never the indexer; the
/// indexer sees which extractor was running from the `begin` frame sent before each.
///
/// Defence in depth beyond the indexer's own deadline: the worker arms `alarm()` a little past
/// each rule's `Timeout=`, so that a hung worker whose indexer was killed does not linger.
public enum ExtractionWorker {
  /// Free heap above which the worker hands memory back to the kernel after a file.
  static let trimThreshold: UInt = 4 << 20

  /// Runs until standard input ends; returns the exit status.
  public static func run() -> Int32 {
    // Frames go to a private copy of standard output; standard output itself is pointed at
    // standard error, so a library that prints cannot corrupt the stream.
    let output = dup(1)
    guard output >= 0, dup2(2, 1) >= 0 else { return 70 }
    let input: Int32 = 0
    do {
      guard let helloFrame = try FrameCodec.readFrame(from: input) else { return 0 }
      let hello = try FrameCodec.decode(WorkerHello.self, from: helloFrame[...])
      let memoryCap =
        hello.rules.map(\.limits.maxMemoryBytes).max() ?? ExtractionLimits().maxMemoryBytes
      var report = ConfinementReport()
      let (baseline, limit) = WorkerConfinement.capAddressSpace(extraBytes: memoryCap)
      report.baselineAddressSpace = baseline
      report.addressSpaceLimit = limit
      if !hello.unconfined { WorkerConfinement.apply(into: &report) }
      try FrameCodec.writeAll(FrameCodec.frame(WorkerMessage.ready(report).wire()), to: output)

      let service = ExtractionService(rules: RuleSet(rules: hello.rules))
      let faults = WorkerFaults()
      var trimmedAt = Self.heapEnd()
      while let frame = try FrameCodec.readFrame(from: input) {
        let job = try ExtractionJob(wire: frame[...])
        var sendFailure: (any Error)?
        var extractorsRun = 0
        let result = service.extract(job) { rule, identity in
          WorkerConfinement.setSoftAddressSpace(baseline + rule.limits.maxMemoryBytes)
          alarm(UInt32(rule.limits.timeoutSeconds.rounded(.up)) + 2)
          // The indexer armed the first matching rule's deadline and blames its extractor
          // when it sent the job: only a fallback needs announcing. One frame (and one wake-up
          // of the indexer) per file instead of two.
          if extractorsRun > 0 {
            do {
              try FrameCodec.writeAll(
                FrameCodec.frame(
                  WorkerMessage.begin(identity, timeoutSeconds: rule.limits.timeoutSeconds).wire()),
                to: output)
            } catch {
              sendFailure = error
            }
          }
          extractorsRun += 1
          faults.strike(path: job.path)
        }
        alarm(0)
        if let sendFailure { throw sendFailure }
        // The indexer keeps the outcome, the extractor and the failures (`FileExtraction`);
        // the rule and the candidates (every MIME pattern of every matching rule) it has itself.
        var sent = result
        sent.rule = nil
        sent.candidates = []
        try FrameCodec.writeAll(FrameCodec.frame(WorkerMessage.result(sent).wire()), to: output)
        // Give back what a large file made malloc keep, so the next file starts near the
        // baseline the memory cap is measured against. Only after the heap grew: a trim after
        // every small file cost more than many extractions (it walks the whole heap and hands
        // back pages that the next file faults in again). The worker allocates on one thread,
        // so its heap is the main arena, whose end is the program break.
        let heapEnd = Self.heapEnd()
        if heapEnd > trimmedAt + Self.trimThreshold {
          lumen_release_free_memory()
          trimmedAt = Self.heapEnd()
        } else {
          trimmedAt = min(trimmedAt, heapEnd)
        }
      }
      return 0
    } catch {
      ExtractionWorker.complain("\(error)")
      return 70
    }
  }

  /// The end of the main malloc arena (the program break); no system call.
  private static func heapEnd() -> UInt {
    UInt(bitPattern: sbrk(0))
  }

  /// A line on standard error, which the indexer keeps as the reason if this worker dies.
  static func complain(_ message: String) {
    let bytes = Array("lumen worker: \(message)\n".utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  }

  /// Applies the confinement and tries what it should forbid, for `lumen __extract-worker
  /// --probe DIR` and the tests: opening a socket, connecting, creating and writing a file in
  /// DIR, and reading one. Returns the report and each attempt's outcome ("ok" or the error).
  public static func probe(folder: String, readable: String) -> (
    ConfinementReport, [String: String]
  ) {
    var report = ConfinementReport()
    let (baseline, limit) = WorkerConfinement.capAddressSpace(
      extraBytes: ExtractionLimits().maxMemoryBytes)
    report.baselineAddressSpace = baseline
    report.addressSpaceLimit = limit
    WorkerConfinement.apply(into: &report)
    var outcomes: [String: String] = [:]
    func outcome(_ result: Int32) -> String {
      result >= 0 ? "ok" : String(cString: strerror(errno))
    }
    let socketResult = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    outcomes["socket"] = outcome(socketResult)
    if socketResult >= 0 { close(socketResult) }
    let unixSocket = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    outcomes["unixSocket"] = outcome(unixSocket)
    if unixSocket >= 0 { close(unixSocket) }
    let created = open(folder + "/probe-created", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
    outcomes["create"] = outcome(created)
    if created >= 0 { close(created) }
    let appended = open(readable, O_WRONLY | O_APPEND | O_CLOEXEC)
    outcomes["writeExisting"] = outcome(appended)
    if appended >= 0 { close(appended) }
    outcomes["unlink"] = outcome(unlink(readable))
    outcomes["mkdir"] = outcome(mkdir(folder + "/probe-folder", 0o700))
    let reading = open(readable, O_RDONLY | O_CLOEXEC)
    outcomes["read"] = outcome(reading)
    if reading >= 0 { close(reading) }
    let listing = opendir(folder)
    outcomes["list"] = listing == nil ? String(cString: strerror(errno)) : "ok"
    if let listing { closedir(listing) }
    return (report, outcomes)
  }
}
