/// One uniform type identifier declared in rules/: what it conforms to, and the MIME types and
/// file-name extensions that name it. Lumen keeps these as data so a user can add a type without
/// rebuilding, as macOS does with exported UTIs.
public struct ContentTypeDeclaration: Sendable, Equatable, Codable {
  public let identifier: String
  public let conformsTo: [String]
  public let mimeTypes: [String]
  public let extensions: [String]
  public let description: String?
  /// Where it was declared (`rules/content-types.conf:12`), for `lumen rules`.
  public let source: String

  public init(
    identifier: String, conformsTo: [String], mimeTypes: [String] = [],
    extensions: [String] = [], description: String? = nil, source: String = ""
  ) {
    self.identifier = identifier
    self.conformsTo = conformsTo
    self.mimeTypes = mimeTypes
    self.extensions = extensions
    self.description = description
    self.source = source
  }

  /// Reads every `[identifier]` group of a key file.
  public static func parse(_ file: KeyFile) throws(KeyFileError) -> [ContentTypeDeclaration] {
    let known: Set<String> = ["ConformsTo", "MimeTypes", "Extensions", "Description"]
    return try file.groups.map { group throws(KeyFileError) in
      for entry in group.entries where !known.contains(entry.key) {
        throw KeyFileError(
          source: file.source, line: entry.line, message: "unknown key '\(entry.key)'")
      }
      guard group.name.contains("."), !group.name.contains(" ") else {
        throw KeyFileError(
          source: file.source, line: group.line,
          message: "'\(group.name)' is not a type identifier such as public.jpeg")
      }
      return ContentTypeDeclaration(
        identifier: group.name, conformsTo: group.list("ConformsTo"),
        mimeTypes: group.list("MimeTypes").map { $0.lowercased() },
        extensions: group.list("Extensions").map { $0.lowercased() },
        description: group.value("Description"), source: "\(file.source):\(group.line)")
    }
  }
}
