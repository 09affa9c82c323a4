import Glibc

/// A whole file mapped read-only, for libraries that would otherwise read it in many small
/// pieces: poppler reads through a 256-byte buffer, one `pread` each, and qpdf seeks and reads
/// through stdio for every object, about 30,000 system calls for one 1.8 MB PDF, each one
/// through the worker's seccomp filter. Handed the mapping, both read memory that the kernel
/// fills from the page cache on first touch, and only the pages they touch.
///
/// Owns the mapping and unmaps it in `deinit`; a library given `bytes` must not outlive it
/// (see `retainedPointer`). A file cut short while mapped turns a read past its new end into a
/// SIGBUS, which ends only the worker: the pipeline records that like any crash, and the
/// changed file is read again by the next crawl.
final class MappedFile {
  let bytes: UnsafeRawBufferPointer

  /// Maps `path`; nil when it is not a regular file, is empty, or cannot be mapped (a file
  /// larger than the worker's address-space cap): callers then read the file the old way.
  init?(path: [UInt8]) {
    let descriptor = (path + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
    }
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0
    else { return nil }
    let size = Int(info.st_size)
    guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0),
      address != MAP_FAILED
    else { return nil }
    bytes = UnsafeRawBufferPointer(start: address, count: size)
  }

  deinit { munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count) }

  /// This object, retained once, for a C library that releases it through
  /// `releaseRetainedPointer` when it lets go of the bytes.
  var retainedPointer: UnsafeMutableRawPointer { Unmanaged.passRetained(self).toOpaque() }

  /// Balances one `retainedPointer`.
  static func releaseRetainedPointer(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer else { return }
    Unmanaged<MappedFile>.fromOpaque(pointer).release()
  }
}
