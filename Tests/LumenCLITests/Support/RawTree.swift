import Foundation
import Glibc
import LumenModel

/// Walks a tree with readdir and lstat, names as raw bytes (in `FaithfulPath` form, as Lumen
/// stores them): FileManager cannot spell a name that is not UTF-8.
enum RawTree {
  enum Kind: Equatable {
    case regular, directory, symbolicLink, other
  }

  static func entries(under root: String) -> [String: Kind] {
    var result: [String: Kind] = [root: .directory]
    var pending = [root]
    while let folder = pending.popLast() {
      let bytes = FaithfulPath.encode(folder)
      guard
        let stream = (bytes + [0]).withUnsafeBufferPointer({ buffer in
          buffer.withMemoryRebound(to: CChar.self) { opendir($0.baseAddress!) }
        })
      else { continue }
      defer { closedir(stream) }
      while let entry = readdir(stream) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          Array(raw.prefix { $0 != 0 })
        }
        if name == [0x2E] || name == [0x2E, 0x2E] { continue }
        let full = bytes + [0x2F] + name
        var info = stat()
        let status = (full + [0]).withUnsafeBufferPointer { buffer in
          buffer.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &info) }
        }
        guard status == 0 else { continue }
        let path = FaithfulPath.decode(full)
        switch info.st_mode & S_IFMT {
        case S_IFREG: result[path] = .regular
        case S_IFDIR:
          result[path] = .directory
          pending.append(path)
        case S_IFLNK: result[path] = .symbolicLink
        default: result[path] = .other
        }
      }
    }
    return result
  }
}
