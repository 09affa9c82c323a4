/// One part's relationships (`_rels/.rels`, `ppt/_rels/presentation.xml.rels`): how OOXML
/// finds its parts instead of relying on fixed names.
struct OOXMLRelationships {
  static let officeRelationships =
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
  static let strictRelationships = "http://purl.oclc.org/ooxml/officeDocument/relationships"

  private var byID: [String: String] = [:]
  private var typed: [(type: String, target: String)] = []

  /// - Parameter part: the part whose relationships to read; empty for the package's own.
  init(package: ZipPackage, part: String, problems: inout [String]) {
    let folder = PackagePath.folder(of: part)
    let name = part.isEmpty ? "" : String(part.dropFirst(folder.count))
    let relsPart = "\(folder)_rels/\(name).rels"
    guard let tree = package.xml(relsPart, problems: &problems), let root = tree.root else {
      return
    }
    for relationship in tree.descendants(of: root, named: "Relationship") {
      guard let target = tree.attribute("Target", of: relationship),
        tree.attribute("TargetMode", of: relationship) != "External"
      else { continue }
      let resolved = PackagePath.resolve(target, from: folder)
      if let id = tree.attribute("Id", of: relationship) { byID[id] = resolved }
      typed.append((tree.attribute("Type", of: relationship) ?? "", resolved))
    }
  }

  func target(id: String) -> String? { byID[id] }

  /// The first target whose relationship type ends with `suffix` (`core-properties`).
  func target(endingWith suffix: String) -> String? {
    typed.first { $0.type.hasSuffix("/" + suffix) }?.target
  }
}
