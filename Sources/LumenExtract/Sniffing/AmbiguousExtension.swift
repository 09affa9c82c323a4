/// Extensions that do not settle a file's type by themselves, although a type declares them:
/// unrelated formats in common use share them, or they name a container whose bytes say which
/// more specific type it holds. The crawl reads the head of such a file (and asks libmagic), as
/// it does for a file without a known extension.
///
/// Why a list: a declared extension normally settles the type without opening the file (as
/// GIO and shared-mime-info do when a name matches one glob), which is what keeps a first
/// crawl near the cost of `stat`. The bytes only matter where they name another type than the
/// extension does, and for the extensions here that is common rather than a mistake. The list
/// is data: extend it when a test on real files (see `SniffByNameTests`) shows a disagreement.
enum AmbiguousExtension {
  static let known: Set<String> = [
    // Shared by unrelated formats.
    "ts",  // TypeScript source, and MPEG-2 transport streams (camcorders, TV recordings)
    "mod",  // Amiga tracker modules, and Go's go.mod (text)
    "asc",  // ASCII-armoured OpenPGP data, and plain ASCII text
    "doc",  // Word 97 documents, and plain-text documentation
    "dot",  // Word 97 templates, and Graphviz graphs (text)
    // Containers: the brand in the bytes names the type (HEIC is HEIF holding HEVC images).
    "heif", "hif",
  ]

  /// Whether `ext` (as written in the name, any case) is in the list.
  static func contains(_ ext: String) -> Bool {
    known.contains(ext) || known.contains(ext.lowercased())
  }
}
