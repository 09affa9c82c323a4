import Glibc

/// How a worker ended, from its wait status.
struct WorkerTermination: Sendable, Equatable {
  let exitStatus: Int32?
  let signal: Int32?

  init(status: Int32) {
    let signalBits = status & 0x7f
    if signalBits == 0 {
      exitStatus = (status >> 8) & 0xff
      signal = nil
    } else {
      exitStatus = nil
      signal = signalBits
    }
  }
}
