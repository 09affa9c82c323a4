/// What an extraction worker managed to give up, as it reports on start (and as
/// `lumen __extract-worker --probe` prints it): each mechanism is either on or says why not.
public struct ConfinementReport: Codable, Sendable, Equatable {
  /// prctl(PR_SET_NO_NEW_PRIVS): neither the worker nor anything it could start gains
  /// privileges (setuid binaries, file capabilities).
  public var noNewPrivileges: Bool
  /// The seccomp filter: "on", or the error that kept it off.
  public var seccomp: String
  /// The Landlock ABI version the kernel offers, 0 when none.
  public var landlockABI: Int
  /// The Landlock ruleset: "read-only", or why not.
  public var landlock: String
  /// RLIMIT_AS when the worker started: its baseline address space plus the largest
  /// `MaxMemory=` of the rules.
  public var addressSpaceLimit: Int
  /// The address space the worker had mapped before its first file.
  public var baselineAddressSpace: Int
  /// Threads in the process when the confinement was applied; Landlock binds the calling
  /// thread and the threads it creates later, so this should be 1.
  public var threadsAtConfinement: Int

  public init(
    noNewPrivileges: Bool = false, seccomp: String = "off", landlockABI: Int = 0,
    landlock: String = "off", addressSpaceLimit: Int = 0, baselineAddressSpace: Int = 0,
    threadsAtConfinement: Int = 0
  ) {
    self.noNewPrivileges = noNewPrivileges
    self.seccomp = seccomp
    self.landlockABI = landlockABI
    self.landlock = landlock
    self.addressSpaceLimit = addressSpaceLimit
    self.baselineAddressSpace = baselineAddressSpace
    self.threadsAtConfinement = threadsAtConfinement
  }

  public var isFullyConfined: Bool {
    noNewPrivileges && seccomp == "on" && landlock == "read-only"
  }
}
