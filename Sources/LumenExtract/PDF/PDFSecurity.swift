/// How a PDF is encrypted, named the way a person would search for it (`Standard AES-256`),
/// from the trailer's /Encrypt dictionary. Readable even when the password is not known, since
/// the dictionary itself is never encrypted.
enum PDFSecurity {
  static let none = "None"

  static func method(document: QPDFDocument) -> String? {
    guard let trailer = document.trailer, let encrypt = document.value(trailer, "/Encrypt") else {
      return nil
    }
    let filter = document.value(encrypt, "/Filter").flatMap(document.name) ?? "Unknown"
    let version = document.value(encrypt, "/V").flatMap(document.integer) ?? 0
    let length = document.value(encrypt, "/Length").flatMap(document.integer) ?? 40
    let cipher: String
    switch version {
    case 1, 2, 3:
      cipher = "RC4 \(length)-bit"
    case 4:
      let method = document.value(encrypt, "/CF")
        .flatMap { document.value($0, "/StdCF") }
        .flatMap { document.value($0, "/CFM") }
        .flatMap(document.name)
      cipher = method == "AESV2" ? "AES-128" : "RC4 128-bit"
    case 5, 6:
      cipher = "AES-256"
    default:
      cipher = "unknown cipher"
    }
    return "\(filter) \(cipher)"
  }
}
