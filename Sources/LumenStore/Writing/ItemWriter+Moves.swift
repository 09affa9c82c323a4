import Foundation
import GRDB
import LumenModel

extension ItemWriter {
  /// Moves one file item to `destination` (see `SearchableIndex.moveFile`).
  func moveFile(from source: String, to destination: String) throws -> Bool {
    guard let id = try ItemLookup.fileRowID(db, path: source) else { return false }
    guard
      let stored = try ItemReader(db: db, layout: context.layout, registry: registry)
        .storedItem(rowID: id)
    else { return false }
    if let target = try ItemLookup.rowID(db, identifier: destination), target != id {
      try removeRow(target)
    }
    var attributes = stored.attributes
    let oldName = StoredPath(source).name
    attributes.set(.text(destination), for: .path)
    if attributes.text(.fileName)?.isIdentical(to: oldName) == true {
      attributes.set(.text(StoredPath(destination).name), for: .fileName)
    }
    let facts = stored.fileStamp.map {
      FileFacts(stamp: $0, isDirectory: stored.isDirectory, extractor: stored.extractor)
    }
    try removeRow(id)
    try insertRow(
      id: id, identifier: destination, domain: stored.domainIdentifier, attributes: attributes,
      expiration: stored.ownExpirationDate, file: facts)
    return true
  }
}
