/// A stable number for "which extractors and rules are in force". A file that no extractor read
/// is stamped with it, so adding an extractor or a rule that now covers the file's type (an
/// upgrade, or a user's rule file) re-reads exactly those files on the next crawl, and nothing
/// changes for files an extractor did read (their stamp is the extractor's own version).
///
/// FNV-1a over a canonical text, not `Hasher`, whose seed changes with every process.
public enum RulesFingerprint {
  public static func of(rules: RuleSet, catalog: ExtractorCatalog) -> Int {
    var text = ""
    for type in catalog.types { text += "\(type.name)=\(type.version);" }
    for rule in rules.rules {
      text += "|\(rule.extractor)|\(rule.priority)|"
      text += rule.mimeTypes.map(\.description).joined(separator: ",")
      text += "|" + rule.blockMimeTypes.map(\.description).joined(separator: ",")
    }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return Int(truncatingIfNeeded: hash & 0x7FFF_FFFF_FFFF_FFFF)
  }
}
