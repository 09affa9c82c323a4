import Foundation
import ZIPFoundation

/// Builds zip files for hostile-input tests with ZIPFoundation (no committed binaries).
enum ZipBuilder {
  enum Content {
    case bytes([UInt8])
    /// `count` zero bytes, generated chunk by chunk: deflates to almost nothing.
    case zeros(Int)
  }

  static func make(at path: String, _ entries: [(String, Content)]) throws {
    let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
    for (name, content) in entries {
      switch content {
      case .bytes(let bytes):
        let data = Data(bytes)
        try archive.addEntry(
          with: name, type: .file, uncompressedSize: Int64(data.count),
          compressionMethod: name == "mimetype" ? .none : .deflate
        ) { position, size in data.subdata(in: Int(position)..<Int(position) + size) }
      case .zeros(let count):
        let chunk = Data(count: 1 << 20)
        try archive.addEntry(
          with: name, type: .file, uncompressedSize: Int64(count), compressionMethod: .deflate,
          bufferSize: 1 << 20
        ) { _, size in chunk.prefix(size) }
      }
    }
  }

  /// Rewrites every central-directory record's uncompressed size to `size`: a header that lies
  /// about how much its entry inflates to.
  static func lieAboutSizes(at path: String, size: UInt32) throws {
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let signature: [UInt8] = [0x50, 0x4B, 0x01, 0x02]
    var index = 0
    while index + 46 <= bytes.count {
      if Array(bytes[index..<index + 4]) == signature {
        withUnsafeBytes(of: size.littleEndian) {
          bytes.replaceSubrange(index + 24..<index + 28, with: $0)
        }
        index += 46
      } else {
        index += 1
      }
    }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }
}
