import Glibc
import Synchronization

/// User names by user ID (`getpwuid_r`), looked up once per ID and shared by the crawl threads:
/// a home folder has one or two owners, and NSS lookups can be slow (LDAP, sssd).
final class OwnerNames: Sendable {
  private let cache = Mutex<[UInt32: String?]>([:])

  init() {}

  func name(of userID: UInt32) -> String? {
    if let known = cache.withLock({ $0[userID] }) { return known }
    let name = Self.lookUp(userID)
    cache.withLock { $0[userID] = .some(name) }
    return name
  }

  private static func lookUp(_ userID: UInt32) -> String? {
    var entry = passwd()
    var result: UnsafeMutablePointer<passwd>?
    var capacity = 1024
    while capacity <= 1 << 20 {
      let found: String?? = withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) {
        buffer in
        let code = getpwuid_r(userID, &entry, buffer.baseAddress!, capacity, &result)
        if code == ERANGE { return .none }
        guard code == 0, result != nil, let name = entry.pw_name else { return .some(nil) }
        return .some(String(cString: name))
      }
      if let found { return found }
      capacity *= 4
    }
    return nil
  }
}
