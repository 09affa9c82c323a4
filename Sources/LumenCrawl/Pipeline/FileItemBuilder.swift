import Foundation
import LumenExtract
import LumenModel
import LumenStore

/// Turns what the walk, the sniffer and the extractor found into a `FileRecord`: the item
/// (identifier = absolute path, domain = its root's) with its file-system attributes, and the
/// stamp that lets the next crawl skip it when nothing changed.
struct FileItemBuilder: Sendable {
  let contentTypes: ContentTypeRegistry
  let owners: OwnerNames
  /// Each declared type's `contentType` and `contentTypeTree`, worked out once rather than
  /// once per file: the start of the attributes of a file no extractor added to.
  private let typeAttributes: [String: AttributeSet]

  init(contentTypes: ContentTypeRegistry, owners: OwnerNames) {
    self.contentTypes = contentTypes
    self.owners = owners
    var typeAttributes: [String: AttributeSet] = [:]
    for identifier in contentTypes.declarations.keys {
      typeAttributes[identifier] = Self.attributes(ofType: identifier, in: contentTypes)
    }
    self.typeAttributes = typeAttributes
  }

  private static func attributes(ofType type: String, in contentTypes: ContentTypeRegistry)
    -> AttributeSet
  {
    var attributes = AttributeSet()
    attributes.set(.text(type), for: .contentType)
    attributes.set(contentTypes.tree(of: type).map(AttributeValue.text), for: .contentTypeTree)
    return attributes
  }

  /// A full record: file-system attributes over whatever the extractor found.
  func record(
    for entry: CrawlEntry, root: ScopeRoot, type: Sniffer.Result, linkTarget: String? = nil,
    extraction: FileExtraction? = nil
  ) -> FileRecord {
    var attributes: AttributeSet
    if let extracted = extraction?.attributes, !extracted.isEmpty {
      attributes = extracted
      // An extractor may know better dates (a photo's capture time); the file system fills in.
      let extractedCreation = attributes.first(.contentCreationDate)
      let extractedModification = attributes.first(.contentModificationDate)
      fill(&attributes, from: entry)
      if let extractedCreation { attributes.set(extractedCreation, for: .contentCreationDate) }
      if let extractedModification {
        attributes.set(extractedModification, for: .contentModificationDate)
      }
      let typed =
        typeAttributes[type.contentType]
        ?? Self.attributes(ofType: type.contentType, in: contentTypes)
      attributes.set(typed[.contentType], for: .contentType)
      attributes.set(typed[.contentTypeTree], for: .contentTypeTree)
    } else {
      attributes =
        typeAttributes[type.contentType]
        ?? Self.attributes(ofType: type.contentType, in: contentTypes)
      fill(&attributes, from: entry)
    }
    if let linkTarget { attributes.set(.text(linkTarget), for: .linkTarget) }
    return FileRecord(
      item: SearchableItem(
        uniqueIdentifier: entry.path, domainIdentifier: root.domainIdentifier,
        attributeSet: attributes),
      stamp: Self.stamp(entry.status), isDirectory: entry.status.kind == .directory,
      extractor: extraction?.extractor, extractionFailure: extraction?.failure)
  }

  /// An update that refreshes only the file-system attributes and the stamp, keeping what was
  /// extracted: for a file whose content did not change (moved, renamed, chmod, chown).
  func attributesUpdate(
    for entry: CrawlEntry, root: ScopeRoot, extractor: ExtractorStamp?
  ) -> FileRecord {
    var attributes = AttributeSet()
    fill(&attributes, from: entry)
    return FileRecord(
      item: SearchableItem(
        uniqueIdentifier: entry.path, domainIdentifier: root.domainIdentifier,
        attributeSet: attributes, isUpdate: true),
      stamp: Self.stamp(entry.status), isDirectory: entry.status.kind == .directory,
      extractor: extractor)
  }

  private func fill(_ attributes: inout AttributeSet, from entry: CrawlEntry) {
    let status = entry.status
    attributes.set(.text(entry.path), for: .path)
    attributes.set(.text(entry.name), for: .fileName)
    attributes.set(.text(entry.name), for: .displayName)
    if status.kind != .directory {
      attributes.set(.number(Double(status.size)), for: .fileSize)
    }
    if let birth = status.birthNanos {
      attributes.set(.date(Self.date(birth)), for: .contentCreationDate)
    }
    attributes.set(.date(Self.date(status.modificationNanos)), for: .contentModificationDate)
    attributes.set(.number(Double(status.ownerUserID)), for: .ownerUserID)
    attributes.set(.number(Double(status.ownerGroupID)), for: .ownerGroupID)
    if let owner = owners.name(of: status.ownerUserID) {
      attributes.set(.text(owner), for: .ownerName)
    }
    attributes.set(.number(Double(status.permissions)), for: .fileMode)
  }

  static func stamp(_ status: FileStatus) -> FileStamp {
    FileStamp(
      device: status.device, inode: status.inode, size: status.size,
      modificationNanos: status.modificationNanos, changeNanos: status.changeNanos)
  }

  static func date(_ nanos: Int64) -> Date {
    Date(timeIntervalSince1970: Double(nanos) / 1_000_000_000)
  }
}
