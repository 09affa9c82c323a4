@preconcurrency import CPoppler
import Glibc

/// The one door to poppler-glib, used only for page text: qpdf reads everything else faster,
/// but has no text layout engine, and writing one would be redoing poppler badly.
/// Owns a `PopplerDocument` and unreferences it in deinit.
final class PopplerDocument {
  private let document: OpaquePointer

  /// Opens the file with an empty password; nil when poppler cannot (damaged beyond repair, or
  /// encrypted with a user password).
  init?(pathBytes: [UInt8]) {
    PopplerLogSilencer.install()
    let descriptor = (pathBytes + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
    }
    guard descriptor >= 0 else { return nil }
    var error: UnsafeMutablePointer<GError>? = nil
    // poppler takes ownership of the descriptor, on success and on failure alike.
    guard let document = poppler_document_new_from_fd(descriptor, "", &error) else {
      if let error { g_error_free(error) }
      return nil
    }
    self.document = document
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
