import LumenModel

/// A file item as the crawler writes it: the item (its identifier is the absolute path, and so
/// is its `path` attribute), plus what identified the file and what extracted it.
public struct FileRecord: Sendable, Equatable {
  public var item: SearchableItem {
    didSet { draft = nil }
  }
  public var stamp: FileStamp
  public var isDirectory: Bool
  /// Nil when no extractor ran (only file-system attributes).
  public var extractor: ExtractorStamp?
  /// Why `extractor` gave nothing because it took its worker down; recorded as a
  /// `FailedExtraction`. A full record without it clears any earlier failure of the path.
  public var extractionFailure: String?

  public init(
    item: SearchableItem, stamp: FileStamp, isDirectory: Bool, extractor: ExtractorStamp? = nil,
    extractionFailure: String? = nil
  ) {
    self.item = item
    self.stamp = stamp
    self.isDirectory = isDirectory
    self.extractor = extractor
    self.extractionFailure = extractionFailure
  }

  /// The item laid out in rows ahead of the write (`SearchableIndex.draftRows`); nil when not
  /// drafted, and dropped whenever `item` changes.
  var draft: RowDraft?

  /// The file's path: the item's identifier.
  public var path: String { item.uniqueIdentifier }

  /// About how many bytes of text the record holds: the extracted body and, once drafted, its
  /// folded words. What a crawl bounds the records in flight by (a body can be a megabyte).
  public var heldTextBytes: Int {
    (item.attributeSet.text(.textContent)?.utf8.count ?? 0)
      + (draft?.documents.words?.utf8.count ?? 0)
  }

  /// Equal records describe the same file the same way; a draft is only a head start.
  public static func == (lhs: FileRecord, rhs: FileRecord) -> Bool {
    lhs.item == rhs.item && lhs.stamp == rhs.stamp && lhs.isDirectory == rhs.isDirectory
      && lhs.extractor == rhs.extractor && lhs.extractionFailure == rhs.extractionFailure
  }
}

/// One indexed file in a folder, as `children(ofDirectory:)` lists it: enough to compare the
/// folder with the disk without loading any attributes.
public struct FileEntry: Sendable, Hashable {
  public var name: String
  public var stamp: FileStamp
  public var isDirectory: Bool
  public var extractor: ExtractorStamp?

  public init(name: String, stamp: FileStamp, isDirectory: Bool, extractor: ExtractorStamp?) {
    self.name = name
    self.stamp = stamp
    self.isDirectory = isDirectory
    self.extractor = extractor
  }
}
