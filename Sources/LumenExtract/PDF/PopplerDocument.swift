@preconcurrency import CPoppler
import Glibc

/// The one door to poppler-glib, used only for page text: qpdf reads everything else faster,
/// but has no text layout engine, and writing one would be redoing poppler badly.
/// Owns a `PopplerDocument` and unreferences it in deinit.
final class PopplerDocument {
  private let document: OpaquePointer

  /// Opens the file with an empty password, from `mapped` when there is a mapping (no reads
  /// at all, see `MappedFile`) and from the path otherwise; nil when poppler cannot (damaged
  /// beyond repair, or encrypted with a user password).
  init?(pathBytes: [UInt8], mapped: MappedFile?) {
    PopplerLogSilencer.install()
    var error: UnsafeMutablePointer<GError>? = nil
    defer { if let error { g_error_free(error) } }
    let opened =
      mapped.map { Self.document(from: $0, &error) } ?? Self.document(at: pathBytes, &error)
    guard let opened else { return nil }
    document = opened
  }

  /// The GBytes holds the mapping alive for as long as poppler holds the bytes.
  private static func document(
    from mapped: MappedFile, _ error: inout UnsafeMutablePointer<GError>?
  ) -> OpaquePointer? {
    let bytes = g_bytes_new_with_free_func(
      mapped.bytes.baseAddress, gsize(mapped.bytes.count),
      { MappedFile.releaseRetainedPointer($0) }, mapped.retainedPointer)
    defer { g_bytes_unref(bytes) }
    // No password rather than an empty one (poppler tries the empty one either way): given
    // one, poppler 22 dereferenced null opening the corpus's password-protected PDF from bytes
    // (its retry of an encrypted document copies the stream); without one it fails cleanly.
    return poppler_document_new_from_bytes(bytes, nil, &error)
  }

  private static func document(
    at pathBytes: [UInt8], _ error: inout UnsafeMutablePointer<GError>?
  ) -> OpaquePointer? {
    let descriptor = (pathBytes + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
    }
    guard descriptor >= 0 else { return nil }
    // poppler takes ownership of the descriptor, on success and on failure alike.
    return poppler_document_new_from_fd(descriptor, "", &error)
  }

  deinit { g_object_unref(UnsafeMutableRawPointer(document)) }

  var pageCount: Int { Int(poppler_document_get_n_pages(document)) }

  /// The text of page `index` (0-based) in reading order, as poppler lays it out.
  func text(ofPage index: Int) -> String? {
    guard let page = poppler_document_get_page(document, Int32(index)) else { return nil }
    defer { g_object_unref(UnsafeMutableRawPointer(page)) }
    guard let text = poppler_page_get_text(page) else { return nil }
    defer { g_free(text) }
    return String(cString: text)
  }
}

/// poppler reports syntax errors in damaged files through GLib's log, which would otherwise
/// print on the crawler's stderr once per broken object. We record our own problems instead.
private enum PopplerLogSilencer {
  static let installed: Bool = {
    g_log_set_handler("Poppler", GLogLevelFlags(rawValue: ~0), { _, _, _, _ in }, nil)
    return true
  }()

  static func install() { _ = installed }
}
