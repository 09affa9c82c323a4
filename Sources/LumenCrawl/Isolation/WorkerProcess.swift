import CSandbox
import Foundation
import Glibc
import LumenExtract

/// One extraction worker as the indexer sees it: a child process with three pipes (jobs in,
/// frames out, standard error kept as a short tail for the failure reason). Used by one crawl
/// thread at a time; the pool hands it over.
final class WorkerProcess: @unchecked Sendable {
  let pid: pid_t
  /// -1 once closed.
  private var input: Int32
  private let output: Int32
  private let errors: Int32
  /// Bytes read from `output` that do not yet make a whole frame.
  private var pending: [UInt8] = []
  /// The last bytes the worker wrote to standard error (a crash message, TagLib's warnings).
  private var errorTail: [UInt8] = []
  private var reaped: WorkerTermination?

  static let errorTailBytes = 2048

  private init(pid: pid_t, input: Int32, output: Int32, errors: Int32) {
    self.pid = pid
    self.input = input
    self.output = output
    self.errors = errors
  }

  deinit {
    if reaped == nil {
      Glibc.kill(pid, SIGKILL)
      _ = reap()
    }
    if input >= 0 { close(input) }
    close(output)
    close(errors)
  }

  /// Starts `executable arguments` with the given environment, in a process group of its own
  /// (so a Ctrl-C meant for the indexer does not kill a worker in the middle of a file and make
  /// that file look guilty), with default signal handling and no descriptors but its pipes.
  static func spawn(executable: String, arguments: [String], environment: [String: String])
    throws(WorkerStartError) -> WorkerProcess
  {
    var pipes: [[Int32]] = []
    for _ in 0..<3 {
      var ends: [Int32] = [-1, -1]
      guard pipe(&ends) == 0 else {
        let code = errno
        for pair in pipes { for end in pair { close(end) } }
        throw WorkerStartError(executable: executable, reason: String(cString: strerror(code)))
      }
      for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
      pipes.append(ends)
    }
    let (jobsRead, jobsWrite) = (pipes[0][0], pipes[0][1])
    let (framesRead, framesWrite) = (pipes[1][0], pipes[1][1])
    let (errorsRead, errorsWrite) = (pipes[2][0], pipes[2][1])

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, jobsRead, 0)
    posix_spawn_file_actions_adddup2(&actions, framesWrite, 1)
    posix_spawn_file_actions_adddup2(&actions, errorsWrite, 2)
    posix_spawn_file_actions_addclosefrom_np(&actions, 3)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGCHLD, SIGUSR1, SIGUSR2] {
      sigaddset(&defaults, signal)
    }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var mask = sigset_t()
    sigemptyset(&mask)
    posix_spawnattr_setsigmask(&attributes, &mask)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    close(jobsRead)
    close(framesWrite)
    close(errorsWrite)
    guard status == 0 else {
      close(jobsWrite)
      close(framesRead)
      close(errorsRead)
      throw WorkerStartError(executable: executable, reason: String(cString: strerror(status)))
    }
    for end in [framesRead, errorsRead] {
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
    }
    return WorkerProcess(pid: pid, input: jobsWrite, output: framesRead, errors: errorsRead)
  }

  /// Sends one frame of JSON (the hello). Blocking: it is small and the worker reads it at once.
  func send<T: Encodable>(_ value: T) throws {
    try FrameCodec.writeAll(try FrameCodec.encode(value), to: input)
  }

  /// Sends one job, in its binary form (`WorkerWire`).
  func send(_ job: ExtractionJob) throws {
    try FrameCodec.writeAll(FrameCodec.frame(job.wire()), to: input)
  }

  enum Event {
    case message(WorkerMessage)
    /// The deadline passed with no whole frame.
    case timedOut
    /// The worker closed its output (it exited or died); reap it for the reason.
    case ended
    /// The worker sent something that is not a frame of the protocol.
    case garbled(String)
  }

  /// Waits for the next message until `deadline`, draining standard error meanwhile.
  func next(until deadline: ContinuousClock.Instant) -> Event {
    let clock = ContinuousClock()
    while true {
      if let event = takeFrame() { return event }
      let remaining = clock.now.duration(to: deadline)
      guard remaining > .zero else { return .timedOut }
      let (seconds, attoseconds) = remaining.components
      let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
      var descriptors = [
        pollfd(fd: output, events: Int16(POLLIN), revents: 0),
        pollfd(fd: errors, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&descriptors, 2, milliseconds)
      if ready < 0 {
        if errno == EINTR { continue }
        return .garbled("poll: \(String(cString: strerror(errno)))")
      }
      if descriptors[1].revents != 0 { drainErrors() }
      if descriptors[0].revents != 0, readOutput() {
        drainErrors()
        return takeFrame() ?? .ended
      }
    }
  }

  /// Reads what the output pipe holds; true at end of file.
  private func readOutput() -> Bool {
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let got = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress!, $0.count) }
      if got > 0 {
        pending.append(contentsOf: chunk[..<got])
        if got < chunk.count { return false }
        continue
      }
      if got == 0 { return true }
      if errno == EINTR { continue }
      if errno == EAGAIN { return false }
      return true
    }
  }

  private func takeFrame() -> Event? {
    guard pending.count >= 4 else { return nil }
    let length = FrameCodec.length(of: pending[0..<4])
    guard length <= FrameCodec.maximumPayload else {
      return .garbled("announced a frame of \(length) bytes")
    }
    guard pending.count >= 4 + length else { return nil }
    defer { pending.removeFirst(4 + length) }
    do {
      return .message(try WorkerMessage(wire: pending[4..<(4 + length)]))
    } catch {
      return .garbled("sent a frame that does not decode: \(error)")
    }
  }

  private func drainErrors() {
    var chunk = [UInt8](repeating: 0, count: 8192)
    while true {
      let got = chunk.withUnsafeMutableBytes { read(errors, $0.baseAddress!, $0.count) }
      if got > 0 {
        errorTail.append(contentsOf: chunk[..<got])
        if errorTail.count > Self.errorTailBytes {
          errorTail.removeFirst(errorTail.count - Self.errorTailBytes)
        }
        continue
      }
      if got < 0 && errno == EINTR { continue }
      return
    }
  }

  /// The last line the worker wrote to standard error, if any.
  var lastErrorLine: String? {
    drainErrors()
    let text = String(decoding: errorTail, as: UTF8.self)
    return text.split(whereSeparator: \.isNewline).last.map { line in
      var trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("lumen worker: ") { trimmed.removeFirst("lumen worker: ".count) }
      return String(trimmed.prefix(300))
    }
  }

  /// Kills the worker (if still running) and collects its status.
  @discardableResult
  func kill() -> WorkerTermination {
    if let reaped { return reaped }
    Glibc.kill(pid, SIGKILL)
    return reap()
  }

  /// Waits for the worker's status (it has ended or was killed).
  func reap() -> WorkerTermination {
    if let reaped { return reaped }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let termination = WorkerTermination(status: status)
    reaped = termination
    return termination
  }

  /// Ends an idle worker: closing its input makes it exit; a worker that does not within a
  /// second is killed.
  func finish() {
    guard reaped == nil else { return }
    close(input)
    input = -1
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(1))
    while clock.now < deadline {
      var status: Int32 = 0
      let result = waitpid(pid, &status, WNOHANG)
      if result == pid {
        reaped = WorkerTermination(status: status)
        return
      }
      if result < 0 && errno != EINTR { return }
      usleep(2000)
    }
    kill()
  }
}
