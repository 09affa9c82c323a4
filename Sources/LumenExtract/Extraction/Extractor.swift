import LumenModel

/// One file format's reader. Rules in rules/*.rule name extractors by `name`; an item records
/// the name and `version` that produced it, so after an upgrade `lumen index` re-extracts exactly
/// the files whose extractor changed.
///
/// An extractor returns whatever is valid in a file and records what was not in `problems`;
/// it throws only when it can give nothing at all. It never reads more than `limits` allow.
public protocol Extractor: Sendable {
  /// The name rule files use (`Extractor=photo`).
  static var name: String { get }
  /// Bump when the attributes produced for some file change.
  static var version: Int { get }
  init()
  func extract(_ request: ExtractionRequest) throws(ExtractionError) -> ExtractionOutcome
}

/// What an extractor is asked to read.
public struct ExtractionRequest: Sendable, Codable {
  /// The file's path in `FaithfulPath` form.
  public let path: String
  /// What the sniffer said (libmagic plus extension), e.g. `image/jpeg`.
  public let mimeType: String
  /// The content type identifier, e.g. `public.jpeg`.
  public let contentType: String
  public let limits: ExtractionLimits

  public init(path: String, mimeType: String, contentType: String, limits: ExtractionLimits) {
    self.path = path
    self.mimeType = mimeType
    self.contentType = contentType
    self.limits = limits
  }

  /// The path as the bytes the kernel wants.
  public var fileSystemPath: [UInt8] { FaithfulPath.encode(path) }
}

/// Limits from the rule that chose the extractor (`MaxBytes=`, `MaxTextBytes=`, `MaxPages=`,
/// `Timeout=`, `MaxMemory=`).
public struct ExtractionLimits: Sendable, Equatable, Codable {
  /// At most this many bytes of the file (or of one archive entry) are read.
  public var maxBytes: Int
  /// `textContent` is cut at this many UTF-8 bytes, on a character boundary.
  public var maxTextBytes: Int
  /// Text is read from at most this many pages (nil: every page, up to `maxTextBytes`). Laying
  /// out a page's text costs milliseconds whatever its length, so for long documents a byte
  /// budget alone bounds the index but not the time; only extractors that lay out pages (PDF)
  /// count them.
  public var maxPages: Int?
  /// Wall-clock budget in seconds; enforced by the pipeline (a worker past it is killed).
  public var timeoutSeconds: Double
  /// Address space the extractor may add to its worker process (RLIMIT_AS above what the
  /// worker maps before its first file); only a worker can enforce it.
  public var maxMemoryBytes: Int

  public init(
    maxBytes: Int = 64 << 20, maxTextBytes: Int = 1 << 20, maxPages: Int? = nil,
    timeoutSeconds: Double = 5, maxMemoryBytes: Int = 512 << 20
  ) {
    self.maxBytes = maxBytes
    self.maxTextBytes = maxTextBytes
    self.maxPages = maxPages
    self.timeoutSeconds = timeoutSeconds
    self.maxMemoryBytes = maxMemoryBytes
  }
}

/// What an extractor found, and what it could not read.
public struct ExtractionOutcome: Sendable, Equatable {
  public var attributes: AttributeSet
  /// Recorded errors for the parts that were malformed; the rest of `attributes` still counts.
  public var problems: [String]

  public init(attributes: AttributeSet = AttributeSet(), problems: [String] = []) {
    self.attributes = attributes
    self.problems = problems
  }
}

/// Why an extractor gave nothing at all. The message names what was wrong, not the file: the
/// caller adds the path.
public struct ExtractionError: Error, Equatable, Codable, CustomStringConvertible {
  public enum Kind: String, Sendable, Codable {
    case unreadable
    case malformed
    case encrypted
    case tooLarge
    case unsupported
  }
  public let kind: Kind
  public let message: String

  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  public var description: String { "\(kind.rawValue): \(message)" }
}
