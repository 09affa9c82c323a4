/// A Markdown document's title: its first level-one heading, in ATX (`# Title`) or setext
/// (`Title` over `===`) form, outside fenced code blocks. YAML front matter's `title:` wins
/// when present, since static-site generators treat it as the title.
enum MarkdownTitle {
  static func find(in text: String) -> String? {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).lazy
      .map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
      .prefix(2000).makeIterator()
    var previous: Substring? = nil
    var inFence = false
    var lineNumber = 0
    var inFrontMatter = false
    while let line = lines.next() {
      lineNumber += 1
      let trimmed = line.trimmingWhitespace()
      if lineNumber == 1, trimmed == "---" {
        inFrontMatter = true
        continue
      }
      if inFrontMatter {
        if trimmed == "---" || trimmed == "..." {
          inFrontMatter = false
        } else if trimmed.lowercased().hasPrefix("title:") {
          let value = unquote(String(trimmed.dropFirst(6)).trimmingWhitespace())
          if !value.isEmpty { return value }
        }
        continue
      }
      if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
        inFence.toggle()
        previous = nil
        continue
      }
      if inFence { continue }
      let indent = line.prefix { $0 == " " }.count
      if indent < 4, trimmed.hasPrefix("# ") || trimmed == "#" {
        var heading = trimmed.dropFirst(1).trimmingWhitespace()
        // A closing sequence of #s is not part of the heading.
        while heading.hasSuffix("#") { heading = String(heading.dropLast()) }
        heading = heading.trimmingWhitespace()
        if !heading.isEmpty { return heading }
      }
      if let title = previous, indent < 4, !trimmed.isEmpty, trimmed.allSatisfy({ $0 == "=" }) {
        let heading = title.trimmingWhitespace()
        if !heading.isEmpty { return heading }
      }
      previous = trimmed.isEmpty ? nil : line
    }
    return nil
  }

  private static func unquote(_ value: String) -> String {
    guard value.count >= 2, let first = value.first, first == value.last,
      first == "\"" || first == "'"
    else { return value }
    return String(value.dropFirst().dropLast())
  }
}
