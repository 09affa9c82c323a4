import Foundation

/// Turns a text file's bytes into a Swift string: UTF-8 when valid, otherwise the encoding a BOM
/// or a declared charset names, otherwise ISO-8859-1 (which decodes any byte, so a stray binary
/// byte costs one odd character rather than the whole file). Foundation does the transcoding.
enum TextTranscoder {
  struct Decoded {
    let text: String
    /// The encoding used, as an IANA name (`UTF-8`, `ISO-8859-1`, `UTF-16LE`…).
    let encodingName: String
  }

  /// - Parameters:
  ///   - bytes: the file's first bytes; a sequence cut in the middle at the end is dropped.
  ///   - declaredCharset: a charset from the MIME type (`text/plain; charset=…`) or the document.
  static func decode(_ bytes: [UInt8], declaredCharset: String? = nil) -> Decoded {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      return Decoded(
        text: utf8(bytes.dropFirst(3)) ?? latin1(bytes.dropFirst(3)), encodingName: "UTF-8")
    }
    if bytes.starts(with: [0xFF, 0xFE]), let text = utf16(bytes.dropFirst(2), littleEndian: true) {
      return Decoded(text: text, encodingName: "UTF-16LE")
    }
    if bytes.starts(with: [0xFE, 0xFF]), let text = utf16(bytes.dropFirst(2), littleEndian: false) {
      return Decoded(text: text, encodingName: "UTF-16BE")
    }
    if let text = utf8(bytes[...]) { return Decoded(text: text, encodingName: "UTF-8") }
    if let name = declaredCharset, let encoding = encoding(named: name),
      let text = String(data: Data(bytes), encoding: encoding)
    {
      return Decoded(text: text, encodingName: name.uppercased())
    }
    if let littleEndian = looksLikeUTF16(bytes),
      let text = utf16(bytes[...], littleEndian: littleEndian)
    {
      return Decoded(text: text, encodingName: littleEndian ? "UTF-16LE" : "UTF-16BE")
    }
    return Decoded(text: latin1(bytes[...]), encodingName: "ISO-8859-1")
  }

  /// The charset parameter of a MIME type such as `text/plain; charset=iso-8859-1`.
  static func charset(inMIMEType mimeType: String) -> String? {
    for parameter in mimeType.split(separator: ";").dropFirst() {
      let pair = parameter.split(separator: "=", maxSplits: 1)
      guard pair.count == 2, pair[0].trimmingWhitespace().lowercased() == "charset" else {
        continue
      }
      let value = pair[1].trimmingWhitespace().trimmingCharacters(
        in: CharacterSet(charactersIn: "\"'"))
      return value.isEmpty ? nil : value
    }
    return nil
  }

  /// Valid UTF-8, allowing one incomplete sequence at the very end (the byte budget may cut one).
  private static func utf8(_ bytes: ArraySlice<UInt8>) -> String? {
    if let text = String(validating: bytes, as: UTF8.self) { return text }
    var end = bytes.endIndex
    for _ in 0..<3 where end > bytes.startIndex {
      end -= 1
      if bytes[end] & 0xC0 == 0xC0 {  // a lead byte: drop it and its continuation bytes
        return String(validating: bytes[..<end], as: UTF8.self)
      }
      guard bytes[end] & 0xC0 == 0x80 else { return nil }
    }
    return nil
  }

  private static func utf16(_ bytes: ArraySlice<UInt8>, littleEndian: Bool) -> String? {
    let even = bytes.prefix(bytes.count & ~1)
    return String(data: Data(even), encoding: littleEndian ? .utf16LittleEndian : .utf16BigEndian)
  }

  private static func latin1(_ bytes: ArraySlice<UInt8>) -> String {
    String(decoding: bytes.map { UInt16($0) }, as: UTF16.self)
  }

  /// UTF-16 without a BOM shows as a NUL in every other byte of ASCII-heavy text.
  private static func looksLikeUTF16(_ bytes: [UInt8]) -> Bool? {
    let sample = bytes.prefix(4096)
    guard sample.count >= 4 else { return nil }
    var zeroEven = 0
    var zeroOdd = 0
    for (offset, byte) in sample.enumerated() where byte == 0 {
      if offset.isMultiple(of: 2) { zeroEven += 1 } else { zeroOdd += 1 }
    }
    let half = sample.count / 2
    if zeroOdd * 10 >= half * 7, zeroEven * 10 < half { return true }
    if zeroEven * 10 >= half * 7, zeroOdd * 10 < half { return false }
    return nil
  }

  /// Foundation's encoding for an IANA charset name, for the charsets files actually declare.
  static func encoding(named name: String) -> String.Encoding? {
    switch name.lowercased().replacingOccurrences(of: "_", with: "-") {
    case "utf-8", "utf8": .utf8
    case "us-ascii", "ascii": .ascii
    case "iso-8859-1", "latin1", "latin-1", "iso8859-1", "l1": .isoLatin1
    case "iso-8859-2", "latin2", "iso8859-2": .isoLatin2
    case "windows-1250", "cp1250": .windowsCP1250
    case "windows-1251", "cp1251": .windowsCP1251
    case "windows-1252", "cp1252": .windowsCP1252
    case "windows-1253", "cp1253": .windowsCP1253
    case "windows-1254", "cp1254": .windowsCP1254
    case "utf-16", "utf16": .utf16
    case "utf-16le": .utf16LittleEndian
    case "utf-16be": .utf16BigEndian
    case "shift-jis", "sjis": .shiftJIS
    case "euc-jp": .japaneseEUC
    case "macintosh", "mac-roman": .macOSRoman
    default: nil
    }
  }
}
