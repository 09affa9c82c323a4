import Foundation
import LumenModel
import ZIPFoundation

/// A zip-based document (OpenDocument, OOXML, EPUB) opened for reading parts by name, with the
/// limits that make zip bombs harmless.
///
/// Entry names are only ever dictionary keys here: nothing is written to disk, so a name such
/// as `../../etc/passwd` is just an odd key. Every read is capped twice: by the size the
/// central directory declares (refused up front) and by counting the bytes actually inflated
/// (a lying header is stopped as soon as it overflows).
final class ZipPackage {
  /// Why a part could not be read.
  enum PartError: Error, Equatable, CustomStringConvertible {
    case missing(String)
    case tooLarge(String, Int)
    case unreadable(String, String)

    var description: String {
      switch self {
      case .missing(let name): "\(name) is missing"
      case .tooLarge(let name, let limit): "\(name) inflates to more than \(limit) bytes"
      case .unreadable(let name, let reason): "\(name) is unreadable: \(reason)"
      }
    }
  }

  /// More entries than this and the rest of the central directory is ignored (a real office
  /// file has dozens to a few thousand).
  static let maxEntries = 20_000

  private let archive: Archive
  /// The archive's bytes for `ZipPartInflater`: its path, or the bytes when it was read into
  /// memory.
  private let raw: RawArchive
  private var entries: [String: Entry] = [:]
  /// Entry names in central-directory order.
  private(set) var names: [String] = []
  /// Set when the directory held more than `maxEntries` entries.
  private(set) var isTruncated = false
  /// Per-part inflated-size limit: the rule's MaxBytes.
  let maxPartBytes: Int

  /// The leading bytes of an OLE2/CFB compound file: what a password-protected OOXML file (or
  /// a legacy .doc misnamed .docx) really is.
  static let compoundFileSignature: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]

  /// The problems an outcome starts with: a package cut at `maxEntries` says so, whichever
  /// format it holds.
  var openingProblems: [String] {
    isTruncated ? ["more than \(Self.maxEntries) zip entries"] : []
  }

  init(_ request: ExtractionRequest) throws(ExtractionError) {
    maxPartBytes = request.limits.maxBytes
    // The archive may be larger than MaxBytes (which bounds each part), but must be a file.
    let size = try BoundedFile.regularFileSize(pathBytes: request.fileSystemPath)
    var raw = RawArchive.file(request.fileSystemPath, size: size)
    do {
      if FaithfulPath.hasEscapes(request.path) {
        // ZIPFoundation opens by String path, which cannot spell a non-UTF-8 name: read the
        // bytes ourselves (bounded) and open them in memory.
        let contents = try BoundedFile.read(request)
        guard contents.isComplete else {
          throw ExtractionError(.tooLarge, "archive is over the rule's MaxBytes")
        }
        archive = try Archive(data: Data(contents.bytes), accessMode: .read)
        raw = .memory(contents.bytes)
      } else {
        archive = try Archive(url: URL(fileURLWithPath: request.path), accessMode: .read)
      }
    } catch let error as ExtractionError {
      throw error
    } catch {
      throw ExtractionError(.malformed, "not a zip archive (\(error))")
    }
    self.raw = raw
    for entry in archive {
      if names.count >= Self.maxEntries {
        isTruncated = true
        break
      }
      let name = entry.path
      if entries[name] == nil { names.append(name) }
      entries[name] = entry
    }
  }

  func contains(_ name: String) -> Bool { entries[name] != nil }

  /// The bytes of a part, at most `limit` (default: the rule's MaxBytes) once inflated.
  func read(_ name: String, limit: Int? = nil) throws(PartError) -> [UInt8] {
    guard let entry = entries[name], entry.type == .file else { throw .missing(name) }
    let limit = min(limit ?? maxPartBytes, maxPartBytes)
    guard entry.uncompressedSize <= UInt64(limit) else { throw .tooLarge(name, limit) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Int(entry.uncompressedSize))
    let consume = { (chunk: Data) throws in
      guard bytes.count + chunk.count <= limit else { throw PartError.tooLarge(name, limit) }
      bytes.append(contentsOf: chunk)
    }
    do {
      let inflated =
        entry.isCompressed
        ? try ZipPartInflater.inflate(
          entry, archiveSize: raw.size, read: raw.read, limit: maxPartBytes, consume: consume)
        : nil
      if inflated == nil {
        _ = try archive.extract(entry, skipCRC32: false, consumer: consume)
      }
    } catch let error as PartError {
      throw error
    } catch {
      throw .unreadable(name, "\(error)")
    }
    return bytes
  }

  /// A part parsed as XML, or nil with the reason recorded in `problems`.
  func xml(_ name: String, problems: inout [String]) -> MarkupTree? {
    do {
      let bytes = try read(name)
      guard let tree = MarkupParser.parseXML(bytes), tree.root != nil else {
        problems.append("\(name) is not well-formed XML")
        return nil
      }
      return tree
    } catch .missing {
      return nil
    } catch {
      problems.append(error.description)
      return nil
    }
  }

  /// The archive's bytes, read by offset.
  enum RawArchive {
    case file([UInt8], size: Int)
    case memory([UInt8])

    var size: Int {
      switch self {
      case .file(_, let size): size
      case .memory(let bytes): bytes.count
      }
    }

    func read(_ offset: Int, _ count: Int) -> [UInt8]? {
      switch self {
      case .memory(let bytes):
        guard offset >= 0, count >= 0, offset <= bytes.count - count else { return nil }
        return Array(bytes[offset..<offset + count])
      case .file(let path, _):
        let descriptor = (path + [0]).withUnsafeBufferPointer { buffer in
          buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
        }
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
          let got = bytes.withUnsafeMutableBytes {
            pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset + done))
          }
          if got < 0 && errno == EINTR { continue }
          guard got > 0 else { return nil }
          done += got
        }
        return bytes
      }
    }
  }

  /// True when the file starts like an OLE2 compound file rather than a zip.
  static func isCompoundFile(_ request: ExtractionRequest) -> Bool {
    guard let head = try? BoundedFile.read(pathBytes: request.fileSystemPath, maxBytes: 8) else {
      return false
    }
    return head.bytes == compoundFileSignature
  }
}
