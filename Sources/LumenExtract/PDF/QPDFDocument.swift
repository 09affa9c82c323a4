@preconcurrency import CQPDF
import Glibc

/// A PDF object inside one `QPDFDocument`; meaningless outside it.
struct PDFObject: Equatable {
  fileprivate let handle: UInt32
}

/// The one door to qpdf's C API: owns a `qpdf_data` and frees it in deinit.
///
/// qpdf reads a PDF lazily (the cross-reference table, then only the objects asked for), which
/// is why reading the Info dictionary, the page count and page 1's boxes costs a fraction of a
/// millisecond even on a 1,000-page file. Every call drains qpdf's error and warning queues, so
/// a damaged object reads as "absent" instead of leaking state into the next call.
final class QPDFDocument {
  /// Why opening stopped, when it did: the rest of the document may still be readable.
  enum OpenProblem: Equatable {
    /// Encrypted with a user password we do not have; objects read but strings are garbage.
    case passwordRequired
    /// Broken somewhere; qpdf recovered what it could (or warned and repaired).
    case damaged(String)
  }

  private var data: qpdf_data?
  /// Set when `qpdf_read` reported an error; the xref and unencrypted objects may still be read.
  let openProblem: OpenProblem?

  /// The mapping qpdf reads from, when it was given one: it must outlive `data`.
  private let mapped: MappedFile?

  /// Opens `pathBytes` with an empty user password (what every reader tries first), reading
  /// from `mapped` when there is a mapping (see `MappedFile`).
  init(pathBytes: [UInt8], mapped: MappedFile?) throws(ExtractionError) {
    self.mapped = mapped
    guard let data = qpdf_init() else { throw ExtractionError(.unreadable, "qpdf_init failed") }
    self.data = data
    qpdf_silence_errors(data)
    qpdf_set_suppress_warnings(data, 1)
    qpdf_set_attempt_recovery(data, 1)
    let status = (pathBytes + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { path in
        guard let mapped else { return qpdf_read(data, path.baseAddress, "") }
        return qpdf_read_memory(
          data, path.baseAddress, mapped.bytes.baseAddress?.assumingMemoryBound(to: CChar.self),
          UInt64(mapped.bytes.count), "")
      }
    }
    var problem: OpenProblem? = nil
    if status & QPDF_ERRORS != 0, qpdf_has_error(data) != 0, let error = qpdf_get_error(data) {
      if qpdf_get_error_code(data, error) == qpdf_e_password {
        problem = .passwordRequired
      } else {
        let detail = qpdf_get_error_message_detail(data, error).map { String(cString: $0) }
        problem = .damaged(detail ?? "unreadable PDF")
      }
    } else if status & QPDF_WARNINGS != 0 {
      // qpdf warns about small deviations too (a trailer /Size one too large); only a rebuilt
      // cross-reference table means the file was really damaged.
      while problem == nil, qpdf_more_warnings(data) != 0, let warning = qpdf_next_warning(data) {
        let detail = qpdf_get_error_message_detail(data, warning).map { String(cString: $0) } ?? ""
        if detail.contains("reconstruct") || detail.contains("damaged") {
          problem = .damaged(detail)
        }
      }
    }
    openProblem = problem
    drain()
    if case .damaged(let detail) = problem, root == nil {
      throw ExtractionError(.malformed, detail)
    }
  }

  deinit { qpdf_cleanup(&data) }

  private var handle: qpdf_data { data! }

  /// Discards queued errors and warnings: callers learn about failures from absent values.
  private func drain() {
    while qpdf_has_error(handle) != 0 { _ = qpdf_get_error(handle) }
    while qpdf_more_warnings(handle) != 0 { _ = qpdf_next_warning(handle) }
  }

  private func checked<T>(_ body: () -> T) -> T {
    let value = body()
    drain()
    return value
  }

  // MARK: Document

  var isEncrypted: Bool { checked { qpdf_is_encrypted(handle) != 0 } }
  var isLinearized: Bool { checked { qpdf_is_linearized(handle) != 0 } }
  var pdfVersion: String? { checked { qpdf_get_pdf_version(handle).map { String(cString: $0) } } }

  var trailer: PDFObject? { object(checked { qpdf_get_trailer(handle) }) }
  var root: PDFObject? { object(checked { qpdf_get_root(handle) }) }

  private func object(_ raw: qpdf_oh) -> PDFObject? {
    let present = checked {
      qpdf_oh_is_initialized(handle, raw) != 0 && qpdf_oh_is_null(handle, raw) == 0
    }
    return present ? PDFObject(handle: raw) : nil
  }

  // MARK: Objects

  /// The value of `key` (`/Title`) when `object` is a dictionary or a stream's dictionary.
  func value(_ object: PDFObject, _ key: String) -> PDFObject? {
    let dictionary =
      checked { qpdf_oh_is_stream(handle, object.handle) != 0 }
      ? checked { qpdf_oh_get_dict(handle, object.handle) } : object.handle
    return self.object(checked { qpdf_oh_get_key_if_dict(handle, dictionary, key) })
  }

  func isDictionary(_ object: PDFObject) -> Bool {
    checked { qpdf_oh_is_dictionary(handle, object.handle) != 0 }
  }

  func isStream(_ object: PDFObject) -> Bool {
    checked { qpdf_oh_is_stream(handle, object.handle) != 0 }
  }

  /// Text from a PDF string: PDFDocEncoding or UTF-16 with BOM, as qpdf decodes it.
  func text(_ object: PDFObject) -> String? {
    checked {
      guard qpdf_oh_is_string(handle, object.handle) != 0,
        let value = qpdf_oh_get_utf8_value(handle, object.handle)
      else { return nil }
      let length = qpdf_get_last_string_length(handle)
      let bytes = UnsafeRawBufferPointer(start: value, count: Int(length))
      // NUL characters (from UTF-16 padding) are dropped rather than ending the string.
      return String(decoding: bytes.filter { $0 != 0 }, as: UTF8.self)
    }
  }

  /// A name without its slash (`Standard` for `/Standard`).
  func name(_ object: PDFObject) -> String? {
    checked {
      guard qpdf_oh_is_name(handle, object.handle) != 0,
        let value = qpdf_oh_get_name(handle, object.handle)
      else { return nil }
      return String(String(cString: value).dropFirst())
    }
  }

  func number(_ object: PDFObject) -> Double? {
    checked {
      qpdf_oh_is_number(handle, object.handle) != 0
        ? qpdf_oh_get_numeric_value(handle, object.handle) : nil
    }
  }

  func integer(_ object: PDFObject) -> Int? {
    checked {
      qpdf_oh_is_integer(handle, object.handle) != 0
        ? Int(qpdf_oh_get_int_value(handle, object.handle)) : nil
    }
  }

  func array(_ object: PDFObject) -> [PDFObject]? {
    checked {
      guard qpdf_oh_is_array(handle, object.handle) != 0 else { return nil }
      let count = qpdf_oh_get_array_n_items(handle, object.handle)
      return (0..<max(0, count)).map {
        PDFObject(handle: qpdf_oh_get_array_item(handle, object.handle, $0))
      }
    }
  }

  /// An indirect object's identity, for cycle detection in page trees.
  func identity(_ object: PDFObject) -> Int? {
    checked {
      let id = qpdf_oh_get_object_id(handle, object.handle)
      return id > 0 ? Int(id) << 16 | Int(qpdf_oh_get_generation(handle, object.handle)) : nil
    }
  }

  /// A stream's decoded bytes. Refused (nil) when the stream is longer than `maxEncodedBytes`
  /// on disk, since qpdf inflates without a limit and a tiny compressed stream can expand to
  /// gigabytes; the decoded result is also dropped when longer than `maxDecodedBytes`.
  func streamData(_ object: PDFObject, maxEncodedBytes: Int, maxDecodedBytes: Int) -> [UInt8]? {
    guard isStream(object) else { return nil }
    if let length = value(object, "/Length").flatMap(integer), length > maxEncodedBytes {
      return nil
    }
    return checked {
      var filtered: QPDF_BOOL = 0
      var buffer: UnsafeMutablePointer<UInt8>? = nil
      var length = 0
      let status = qpdf_oh_get_stream_data(
        handle, object.handle, qpdf_dl_generalized, &filtered, &buffer, &length)
      defer { free(buffer) }
      guard status & QPDF_ERRORS == 0, let buffer, length <= maxDecodedBytes else { return nil }
      return Array(UnsafeBufferPointer(start: buffer, count: length))
    }
  }

  /// Page count from qpdf's own page walk, for files whose /Count is missing or wrong.
  var walkedPageCount: Int? {
    checked {
      let count = qpdf_get_num_pages(handle)
      return count >= 0 ? Int(count) : nil
    }
  }
}
