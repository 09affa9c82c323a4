/// JSON-LD blocks of a page: every `<script type="application/ld+json">` (the type matched
/// exactly, as extruct does), parsed leniently; a top-level array contributes its elements and
/// null or empty values contribute nothing.
enum JSONLDReader {
  static func items(in tree: MarkupTree) -> (items: [StructuredValue], problems: [String]) {
    var items: [StructuredValue] = []
    var problems: [String] = []
    for script in tree.allElements()
    where tree[script].name == "script"
      && tree.attribute("type", of: script) == "application/ld+json"
    {
      let text = tree.textContent(of: script).trimmingWhitespace()
      guard !text.isEmpty else { continue }
      do {
        let value = StructuredValue(json: try LenientJSON.parse(text))
        switch value {
        case .array(let elements): items += elements.filter { !isEmpty($0) }
        case .object: if !isEmpty(value) { items.append(value) }
        default: break
        }
      } catch {
        problems.append("json-ld: \(error)")
      }
    }
    return (items, problems)
  }

  /// Python's falsiness, which extruct uses to drop items: null, "", 0, false, [] and {}.
  private static func isEmpty(_ value: StructuredValue) -> Bool {
    switch value {
    case .null: true
    case .string(let text): text.isEmpty
    case .number(let number): number == 0
    case .bool(let flag): !flag
    case .array(let values): values.isEmpty
    case .object(let members): members.isEmpty
    }
  }
}
