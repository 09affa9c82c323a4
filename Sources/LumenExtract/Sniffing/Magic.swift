import CMagic

/// The one owner of a libmagic cookie (`magic_t`): opened and loaded in `init`, closed in
/// `deinit`.
///
/// Deliberately not `Sendable`: libmagic documents a cookie as unsafe to share between threads,
/// so each thread (each crawl worker, each extractor worker) makes its own. That is cheap:
/// `magic_open` + `magic_load` take about 0.2 ms because the compiled database is mmapped.
public final class Magic {
  private let cookie: magic_t

  /// Opens a cookie with `flags` (MIME type only by default) and loads the system database
  /// (`magic_load(cookie, nil)`: `/usr/lib/file/magic.mgc` on Debian).
  public init(flags: Int32 = MAGIC_MIME_TYPE) throws(MagicError) {
    guard let cookie = magic_open(flags) else {
      throw MagicError(message: "magic_open failed")
    }
    guard magic_load(cookie, nil) == 0 else {
      let message = magic_error(cookie).map { String(cString: $0) } ?? "magic_load failed"
      magic_close(cookie)
      throw MagicError(message: message)
    }
    self.cookie = cookie
  }

  deinit { magic_close(cookie) }

  /// libmagic's answer for bytes already read (the first few KiB of a file). The string is
  /// copied at once: libmagic reuses its buffer on the next call.
  public func describe(_ bytes: UnsafeRawBufferPointer) -> String? {
    guard let base = bytes.baseAddress else {
      return magic_buffer(cookie, "", 0).map { String(cString: $0) }
    }
    return magic_buffer(cookie, base, bytes.count).map { String(cString: $0) }
  }

  /// libmagic's answer for a file it opens itself. It stats the path first, so a FIFO or a
  /// device gets `inode/…` without being opened.
  public func describeFile(atPath path: String) -> String? {
    magic_file(cookie, path).map { String(cString: $0) }
  }

  /// The last error libmagic recorded on this cookie.
  public var lastError: String? { magic_error(cookie).map { String(cString: $0) } }
}

@available(*, unavailable, message: "libmagic cookies are not thread-safe: make one per thread")
extension Magic: Sendable {}
