/// Bits of `item.flags`. Frozen: stored in every row and named in the `item_unnormalized`
/// partial index.
struct ItemFlags: OptionSet, Sendable {
  let rawValue: Int64
  /// `fileName` equals the last component of `path` and is stored only in `item.name`.
  static let fileNameIsName = ItemFlags(rawValue: 1)
  /// A file record for a folder.
  static let isDirectory = ItemFlags(rawValue: 2)
  /// Some text value of the item is not in NFC (see `String.isNFC`).
  static let hasUnnormalizedText = ItemFlags(rawValue: 4)
  /// The item's words document is ASCII, so the word index tokenizes it exactly as
  /// `WordSplitter` did and an ASCII free-text phrase found there needs no further check.
  static let wordsAreASCII = ItemFlags(rawValue: 8)
}
