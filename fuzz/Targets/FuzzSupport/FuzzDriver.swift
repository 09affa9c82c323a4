import CFuzzer
import Foundation

/// Hands the process to libFuzzer with `callback` as the target: SwiftPM gives each executable
/// a `main` of its own, so libFuzzer's is not used and its driver is called from here.
public enum FuzzDriver {
  public static func run(
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
  ) -> Never {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    let status = withUnsafeMutablePointer(to: &argv) { arguments in
      arguments.withMemoryRebound(
        to: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?.self, capacity: 1
      ) { LLVMFuzzerRunDriver(&argc, $0, callback) }
    }
    exit(status)
  }
}
