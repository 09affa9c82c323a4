import Foundation
import LumenModel

/// Loads the content-type declarations of rules/ into a `ContentTypeRegistry`: the shipped
/// `content-types.conf` first, then every `*.conf` of the user's rules folder in name order, so
/// a user can add a type or take over a MIME type or extension without rebuilding. Each
/// declaration remembers the file and line it came from, for `lumen rules`.
public enum ContentTypeRules {
  /// The shipped declarations' file name.
  public static let fileName = "content-types.conf"

  /// The registry for the rules found by `RulesDirectory.searchPath()`.
  public static func registry(
    in directories: [RulesDirectory] = RulesDirectory.searchPath()
  ) throws(ContentTypeRulesError) -> ContentTypeRegistry {
    ContentTypeRegistry(try declarations(in: directories))
  }

  /// Every declaration, in load order (later ones override earlier ones).
  public static func declarations(
    in directories: [RulesDirectory]
  ) throws(ContentTypeRulesError) -> [ContentTypeDeclaration] {
    var files: [String] = []
    let shipped = directories.filter { !$0.isUser }
    guard !shipped.isEmpty else {
      throw .noShippedRules(searched: directories.map(\.path))
    }
    for directory in shipped {
      files.append((directory.path as NSString).appendingPathComponent(fileName))
    }
    for directory in directories where directory.isUser {
      do {
        files += try directory.files(withSuffix: ".conf")
      } catch {
        throw .unreadable(path: directory.path, reason: error.localizedDescription)
      }
    }
    var result: [ContentTypeDeclaration] = []
    for file in files {
      result += try declarations(inFile: file)
    }
    return result
  }

  /// The declarations of one file; its path is the `source` of each.
  public static func declarations(
    inFile path: String
  ) throws(ContentTypeRulesError) -> [ContentTypeDeclaration] {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw .unreadable(path: path, reason: error.localizedDescription)
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw .unreadable(path: path, reason: "not UTF-8 text")
    }
    do {
      return try ContentTypeDeclaration.parse(KeyFile(source: path, text: text))
    } catch {
      throw .malformed(error)
    }
  }
}
