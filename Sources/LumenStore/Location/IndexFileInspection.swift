import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A look at an index file's first 100 bytes before SQLite opens it, to tell a damaged or
/// foreign file from an index at once rather than after a crawl has half-written into it.
///
/// SQLite itself notices random bytes (SQLITE_NOTADB) but not a file cut short: it reads the
/// missing pages only when a query reaches them. The header records the database size in
/// pages; when that record is valid (its "version-valid-for" matches the change counter) and
/// the file is shorter, the file was truncated. While a write-ahead log holds pages the check
/// is skipped: the log may legitimately hold what the main file does not yet.
enum IndexFileInspection {
  static let magic = Array("SQLite format 3\0".utf8)

  /// Why the file cannot be an SQLite database, or nil (including for a missing or empty file,
  /// which a writer initialises).
  static func problem(atPath path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    let size = Int64(info.st_size)
    guard size > 0 else { return nil }
    guard size >= 100 else { return "it is \(size) bytes long, too short for a database" }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }  // SQLite reports what keeps it from opening.
    defer { close(descriptor) }
    var header = [UInt8](repeating: 0, count: 100)
    let got = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, 100, 0) }
    guard got == 100 else { return "its header cannot be read" }
    guard Array(header[0..<16]) == magic else { return "it is not an SQLite database" }
    let rawPageSize = Int(header[16]) << 8 | Int(header[17])
    let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
    guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else {
      return "its header gives an impossible page size (\(rawPageSize))"
    }
    if walHoldsPages(path) { return nil }
    guard size % Int64(pageSize) == 0 else {
      return "it was cut short: \(size) bytes is not a whole number of \(pageSize)-byte pages"
    }
    let changeCounter = bigEndian(header, at: 24)
    let pages = bigEndian(header, at: 28)
    let validFor = bigEndian(header, at: 92)
    if pages > 0 && validFor == changeCounter && size < Int64(pages) * Int64(pageSize) {
      return
        "it was cut short: \(size) bytes of the \(Int64(pages) * Int64(pageSize)) its header declares"
    }
    return nil
  }

  private static func walHoldsPages(_ path: String) -> Bool {
    var info = stat()
    return stat(path + "-wal", &info) == 0 && info.st_size > 32
  }

  private static func bigEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
    bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
  }
}
