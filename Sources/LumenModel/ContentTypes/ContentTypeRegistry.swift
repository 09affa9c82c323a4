/// The content-type graph: maps MIME types and extensions to type identifiers, and a type to
/// its tree (`public.jpeg` → `public.image` → `public.data` → `public.item`, plus
/// `public.content`), the way `kMDItemContentTypeTree` lists it.
public struct ContentTypeRegistry: Sendable {
  public static let item = "public.item"
  public static let data = "public.data"

  public let declarations: [String: ContentTypeDeclaration]
  private let byMIME: [String: String]
  private let byExtension: [String: String]

  /// Later declarations of the same identifier, MIME type or extension win, so a user's file
  /// loaded after the shipped ones overrides them.
  public init(_ list: [ContentTypeDeclaration]) {
    var declarations: [String: ContentTypeDeclaration] = [:]
    var byMIME: [String: String] = [:]
    var byExtension: [String: String] = [:]
    for declaration in list {
      declarations[declaration.identifier] = declaration
      for mime in declaration.mimeTypes { byMIME[mime] = declaration.identifier }
      for ext in declaration.extensions { byExtension[ext] = declaration.identifier }
    }
    self.declarations = declarations
    self.byMIME = byMIME
    self.byExtension = byExtension
  }

  public func type(forMIME mime: String) -> String? {
    let base = mime.split(separator: ";").first.map(String.init) ?? mime
    return byMIME[base.lowercased()]
  }

  public func type(forExtension ext: String) -> String? { byExtension[ext.lowercased()] }

  /// The type and everything it conforms to, nearest first, each once; `public.item` always
  /// closes the list. An undeclared identifier still gets `public.data` and `public.item`.
  public func tree(of identifier: String) -> [String] {
    var result: [String] = []
    var seen: Set<String> = []
    var queue = [identifier]
    var index = 0
    while index < queue.count {
      let current = queue[index]
      index += 1
      guard seen.insert(current).inserted else { continue }
      if current != Self.item { result.append(current) }
      if let declaration = declarations[current] {
        queue.append(contentsOf: declaration.conformsTo)
      } else if current != Self.item && current != Self.data {
        queue.append(Self.data)
      }
    }
    result.append(Self.item)
    return result
  }

  /// Whether `identifier` is `ancestor` or conforms to it.
  public func conforms(_ identifier: String, to ancestor: String) -> Bool {
    tree(of: identifier).contains(ancestor)
  }

  /// The preferred MIME type of a type, when one is declared.
  public func mimeType(of identifier: String) -> String? {
    declarations[identifier]?.mimeTypes.first
  }
}
