import LumenModel

/// What can be said about an OLE2 compound file that arrived as an OOXML or ODF type: a
/// password-protected Office document stores its real (zip) package encrypted inside one
/// (streams `EncryptionInfo` and `EncryptedPackage`); otherwise it is a legacy binary file under
/// a modern name. Either way the item keeps its type and the problem is recorded.
enum CompoundFileReport {
  static func outcome(_ request: ExtractionRequest) -> ExtractionOutcome {
    var outcome = ExtractionOutcome()
    let contents = try? BoundedFile.read(request)
    let marker = Array("EncryptedPackage".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
    if let bytes = contents?.bytes, contains(bytes, marker) {
      outcome.attributes.set(.text("Password Encrypted"), for: .securityMethod)
      outcome.problems.append(
        "encrypted: an OLE2 container holding a password-protected package; metadata needs the password"
      )
    } else {
      outcome.problems.append(
        "not a zip package: an OLE2 compound file (a legacy binary Office file under this name?)")
    }
    return outcome
  }

  private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard let first = needle.first, haystack.count >= needle.count else { return false }
    var index = 0
    let last = haystack.count - needle.count
    while index <= last {
      if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) {
        return true
      }
      index += 1
    }
    return false
  }
}
