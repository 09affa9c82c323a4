import Foundation
import Glibc
import LumenExtract

/// Runs one extractor on one fuzz input. Extractors read files, not bytes, so the input is
/// written to a file in /dev/shm (memory, no disk wear) under the extension the rule would
/// see, and extracted with the default limits. A thrown `ExtractionError` is a correct answer
/// to garbage; only a crash, a sanitizer report or a hang counts as a finding.
public enum FuzzExtraction {
  private static let folder: String = {
    let path = "/dev/shm/lumen-fuzz-\(getpid())"
    mkdir(path, 0o700)
    return path
  }()

  public static func run(
    _ extractor: any Extractor.Type, data: UnsafePointer<UInt8>, size: Int, fileExtension: String,
    mimeType: String, contentType: String
  ) {
    let path = folder + "/input." + fileExtension
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { fatalError("cannot write \(path)") }
    var written = 0
    while written < size {
      let count = write(descriptor, data + written, size - written)
      guard count > 0 else { break }
      written += count
    }
    close(descriptor)
    let request = ExtractionRequest(
      path: path, mimeType: mimeType, contentType: contentType, limits: ExtractionLimits())
    _ = try? extractor.init().extract(request)
  }
}
