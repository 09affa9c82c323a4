import Logging

/// swift-log to standard error, at the level `--quiet` / `--verbose` choose. Bootstrapped once,
/// by the command that logs (`lumen watch`); the others print their own messages.
enum LogSetup {
  static func bootstrap(quiet: Bool, verbose: Bool) -> Logger {
    let level: Logger.Level = quiet ? .error : (verbose ? .debug : .info)
    LoggingSystem.bootstrap { label in
      var handler = StreamLogHandler.standardError(label: label)
      handler.logLevel = level
      return handler
    }
    var logger = Logger(label: "lumen.watch")
    logger.logLevel = level
    return logger
  }
}
