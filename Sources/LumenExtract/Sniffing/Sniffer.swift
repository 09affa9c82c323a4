import Glibc
import LumenModel

/// Decides a file's MIME type and content type from its name and, where the name does not
/// settle it, its first bytes.
///
/// libmagic answers a binary signature in about 40 µs but spends about 1 ms on its text tests,
/// and opening a file to read its head costs several times its `stat`, so each is spent where it
/// pays:
/// - FIFOs, sockets, devices, folders and links are typed from `lstat` alone and never opened;
/// - a crawl types a regular file by its name alone (`sniff(name:size:)`) when its extension is
///   declared, its type has a MIME type, and unrelated formats do not share it
///   (`AmbiguousExtension`); an empty file (size 0) is not opened either. This is the rule GIO
///   and shared-mime-info apply when a name matches a single glob, and what keeps a first crawl
///   near the cost of a `stat` walk; the extractor opens the file afterwards anyway and checks
///   its format's own signature. The price: a file whose name lies (a JPEG named `.txt`) is
///   typed by its name;
/// - any other regular file is read (`sniff(openFile:name:)`, `sniffFile(atPath:)`), at most
///   `headCapacity` bytes, and the bytes and the name decide together:
/// - bytes with a NUL or a known binary signature go to libmagic, and a known extension only
///   refines its answer (a `.docx` that libmagic calls `application/zip`);
/// - text is settled by its extension when that names a text type (`.py`, `.md`), and only
///   text without a telling extension (`README`, `Makefile`, a script) pays for libmagic's text
///   tests;
/// - whatever maps to nothing is `public.data`.
///
/// Not `Sendable`: it owns a libmagic cookie and a read buffer. Make one per thread.
public final class Sniffer {
  /// What the sniffer decided, and how.
  public struct Result: Sendable, Equatable {
    public var mimeType: String
    public var contentType: String
    public var method: Method

    public init(mimeType: String, contentType: String, method: Method) {
      self.mimeType = mimeType
      self.contentType = contentType
      self.method = method
    }
  }

  public enum Method: String, Sendable, Codable {
    /// From `lstat` alone: a folder, a link, a FIFO, a device.
    case fileKind
    /// An empty file: its extension, else `public.data`.
    case emptyFile
    /// A declared, unambiguous extension; the file was not read.
    case declaredExtension
    /// Text whose extension names a text type; libmagic was not asked.
    case textExtension
    /// libmagic's answer.
    case magic
    /// libmagic's answer made more specific by the extension.
    case magicRefinedByExtension
    /// Neither libmagic nor the extension knew: `public.data`.
    case unknown
  }

  /// How often each path was taken, so tests and benchmarks can see where time goes.
  public struct Statistics: Sendable, Equatable {
    public var binaryMagicCalls = 0
    public var textMagicCalls = 0
    public var settledByExtension = 0
    /// Regular files typed by `sniff(name:size:)` without being read (empty ones included).
    public var settledByName = 0
    public var emptyFiles = 0
    public var headBytesRead = 0
  }

  public static let defaultHeadCapacity = 4096

  public let registry: ContentTypeRegistry
  public let headCapacity: Int
  public private(set) var statistics = Statistics()

  private let buffer: UnsafeMutableRawBufferPointer
  private var magic: Magic?
  private var magicFailure: MagicError?
  /// `sniff(name:size:)`'s answer per extension as written (nil: read the head), so that a
  /// crawl looks each one up once rather than once per file. Bounded: a hostile tree can have
  /// any number of distinct extensions.
  private var nameAnswers: [String: Result?] = [:]
  private static let nameAnswerLimit = 4096
  /// Types that conform to `public.text`, worked out once per type.
  private var textTypes: [String: Bool] = [:]

  public init(registry: ContentTypeRegistry, headCapacity: Int = Sniffer.defaultHeadCapacity) {
    self.registry = registry
    self.headCapacity = max(16, headCapacity)
    self.buffer = UnsafeMutableRawBufferPointer.allocate(
      byteCount: self.headCapacity, alignment: 16)
  }

  deinit { buffer.deallocate() }

  /// Why libmagic could not be used, if it could not; sniffing then falls back to extensions.
  public var magicProblem: MagicError? { magicFailure }

  /// The type of an entry that is never read, or nil for a regular file (which must be read).
  public func sniff(kind: FileKind) -> Result? {
    guard let mime = kind.inodeMIMEType else { return nil }
    return Result(
      mimeType: mime, contentType: registry.type(forMIME: mime) ?? ContentTypeRegistry.item,
      method: .fileKind)
  }

  /// The type of a regular file of `size` bytes that its name settles, or nil when its head must
  /// be read (`sniff(openFile:name:)`): see the rule above. Never touches the file.
  public func sniff(name: String, size: Int64) -> Result? {
    if size == 0 {
      statistics.settledByName += 1
      return emptyFileResult(name: name)
    }
    guard let ext = Self.fileExtension(of: name) else { return nil }
    let answer: Result?
    if let known = nameAnswers[ext] {
      answer = known
    } else {
      answer = declaredExtensionResult(ext)
      if nameAnswers.count < Self.nameAnswerLimit { nameAnswers[ext] = .some(answer) }
    }
    if answer != nil { statistics.settledByName += 1 }
    return answer
  }

  private func declaredExtensionResult(_ ext: String) -> Result? {
    guard !AmbiguousExtension.contains(ext), let type = registry.type(forExtension: ext),
      let mime = registry.mimeType(of: type)
    else { return nil }
    return Result(mimeType: mime, contentType: type, method: .declaredExtension)
  }

  private func emptyFileResult(name: String) -> Result {
    statistics.emptyFiles += 1
    if let byExtension = Self.fileExtension(of: name).flatMap({ registry.type(forExtension: $0) }) {
      return Result(
        mimeType: registry.mimeType(of: byExtension) ?? "application/x-empty",
        contentType: byExtension, method: .emptyFile)
    }
    return Result(
      mimeType: "application/x-empty", contentType: ContentTypeRegistry.data, method: .emptyFile)
  }

  /// Reads the head of an open regular file (from offset 0, whatever the file position) and
  /// sniffs it.
  public func sniff(openFile descriptor: Int32, name: String) throws(SniffError) -> Result {
    var total = 0
    while total < headCapacity {
      let count = pread(
        descriptor, buffer.baseAddress! + total, headCapacity - total, off_t(total))
      if count < 0 {
        if errno == EINTR { continue }
        throw SniffError(call: "read", code: errno)
      }
      if count == 0 { break }
      total += count
    }
    statistics.headBytesRead += total
    return sniff(head: UnsafeRawBufferPointer(rebasing: buffer[0..<total]), name: name)
  }

  /// Sniffs bytes already read from the start of a regular file named `name`.
  public func sniff(head: UnsafeRawBufferPointer, name: String) -> Result {
    if head.isEmpty { return emptyFileResult(name: name) }
    let byExtension = Self.fileExtension(of: name).flatMap { registry.type(forExtension: $0) }
    let binary = Self.looksBinary(head)
    if !binary, let byExtension, isText(byExtension) {
      statistics.settledByExtension += 1
      return Result(
        mimeType: registry.mimeType(of: byExtension) ?? "text/plain", contentType: byExtension,
        method: .textExtension)
    }
    if binary {
      statistics.binaryMagicCalls += 1
    } else {
      statistics.textMagicCalls += 1
    }
    guard let mime = describe(head) else {
      if let byExtension {
        return Result(
          mimeType: registry.mimeType(of: byExtension) ?? "application/octet-stream",
          contentType: byExtension, method: .textExtension)
      }
      return Result(
        mimeType: "application/octet-stream", contentType: ContentTypeRegistry.data,
        method: .unknown)
    }
    return combine(mime: mime, extensionType: byExtension)
  }

  /// Opens and sniffs a path, deciding by `lstat` first so that a FIFO or a device is never
  /// opened and a symbolic link is typed as a link, not followed.
  public func sniffFile(atPath path: String) throws(SniffError) -> Result {
    let bytes = FaithfulPath.encode(path)
    var status = stat()
    let statResult = bytes.withUnsafeBufferPointer { pointer in
      withPathCString(pointer) { lstat($0, &status) }
    }
    guard statResult == 0 else { throw SniffError(call: "lstat", code: errno) }
    let kind = FileKind(mode: UInt32(status.st_mode))
    if let special = sniff(kind: kind) { return special }
    let descriptor = bytes.withUnsafeBufferPointer { pointer in
      withPathCString(pointer) {
        open($0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
      }
    }
    guard descriptor >= 0 else { throw SniffError(call: "open", code: errno) }
    defer { close(descriptor) }
    let name = path.split(separator: "/").last.map(String.init) ?? path
    return try sniff(openFile: descriptor, name: name)
  }

  /// The extension libmagic is checked against: after the last dot, unless the dot starts the
  /// name (`.bashrc` has none) or ends it.
  public static func fileExtension(of name: String) -> String? {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
    let ext = name[name.index(after: dot)...]
    return ext.isEmpty ? nil : String(ext)
  }

  /// A byte that never occurs in text (libmagic's `text_chars` table: the C0 controls other
  /// than BEL, BS, HT, LF, VT, FF, CR and ESC, and DEL), or a known binary signature. Such heads
  /// take libmagic's fast binary path; only what reads as text risks its slow text tests.
  static func looksBinary(_ head: UnsafeRawBufferPointer) -> Bool {
    for byte in head where neverInText[Int(byte)] { return true }
    return BinarySignature.known.contains { $0.matches(head) }
  }

  private static let neverInText: [Bool] = (0..<256).map { byte in
    switch byte {
    case 0x07...0x0D, 0x1B: false
    case 0x00...0x1F, 0x7F: true
    default: false
    }
  }

  private func isText(_ type: String) -> Bool {
    if let known = textTypes[type] { return known }
    let text = registry.conforms(type, to: "public.text")
    if textTypes.count < Self.nameAnswerLimit { textTypes[type] = text }
    return text
  }

  private func describe(_ head: UnsafeRawBufferPointer) -> String? {
    if magic == nil && magicFailure == nil {
      do {
        magic = try Magic()
      } catch {
        magicFailure = error
      }
    }
    guard let answer = magic?.describe(head) else { return nil }
    // MAGIC_MIME_TYPE gives the type alone, but a user's MAGIC env may add parameters.
    return answer.split(separator: ";").first.map {
      String($0).trimmingCharacters(in: " ")
    }
  }

  /// libmagic's type, unless the extension names a more specific type of the same kind (a
  /// `.docx` is a ZIP archive) or libmagic only knew "some bytes".
  private func combine(mime: String, extensionType: String?) -> Result {
    let byMIME = registry.type(forMIME: mime)
    if let extensionType, extensionType != byMIME {
      if byMIME == nil || byMIME == ContentTypeRegistry.data
        || registry.conforms(extensionType, to: byMIME!)
      {
        return Result(
          mimeType: registry.mimeType(of: extensionType) ?? mime, contentType: extensionType,
          method: .magicRefinedByExtension)
      }
    }
    guard let byMIME else {
      return Result(mimeType: mime, contentType: ContentTypeRegistry.data, method: .unknown)
    }
    return Result(mimeType: mime, contentType: byMIME, method: .magic)
  }
}

@available(*, unavailable, message: "a Sniffer owns a libmagic cookie: make one per thread")
extension Sniffer: Sendable {}

/// Calls `body` with a NUL-terminated copy of `bytes` (a path that may not be UTF-8).
@inline(__always)
func withPathCString<R>(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafePointer<CChar>) -> R)
  -> R
{
  withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { storage in
    for (index, byte) in bytes.enumerated() { storage[index] = CChar(bitPattern: byte) }
    storage[bytes.count] = 0
    return body(storage.baseAddress!)
  }
}

extension String {
  fileprivate func trimmingCharacters(in set: Character) -> String {
    var slice = Substring(self)
    while slice.first == set { slice = slice.dropFirst() }
    while slice.last == set { slice = slice.dropLast() }
    return String(slice)
  }
}
