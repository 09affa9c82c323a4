@preconcurrency import CXML2

/// The one door to libxml2: parses XML or HTML bytes and copies the result into a `MarkupTree`.
///
/// Safety is decided here, once, for every format built on XML: the parser never touches the
/// network (`NONET`), never substitutes entities (no `NOENT`, no `DTDLOAD`, so an external
/// entity such as `file:///etc/passwd` is never read) and the copy skips entity references
/// altogether, so a billion-laughs document cannot be expanded by us either. libxml2 itself
/// caps nesting depth (256 without `HUGE`) and refuses entity amplification.
enum MarkupParser {
  /// Parses XML. Malformed input yields what libxml2 recovered; nil only when nothing was.
  static func parseXML(_ bytes: [UInt8]) -> MarkupTree? {
    let options =
      XML_PARSE_NONET.rawValue | XML_PARSE_RECOVER.rawValue | XML_PARSE_NOERROR.rawValue
      | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue
    guard !bytes.isEmpty, bytes.count <= Int(Int32.max) else { return nil }
    let handle = bytes.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) {
        ParsedDocument(xmlReadMemory($0.baseAddress, Int32($0.count), nil, nil, Int32(options)))
      }
    }
    return handle.map { $0.tree(isHTML: false) }
  }

  /// Parses HTML with libxml2's forgiving HTML parser. `encoding` overrides what the page
  /// declares; nil lets libxml2 read `<meta charset>` (UTF-8 otherwise, Latin-1 on bad bytes).
  static func parseHTML(_ bytes: [UInt8], encoding: String? = nil) -> MarkupTree? {
    let options =
      HTML_PARSE_NONET.rawValue | HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue
      | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_COMPACT.rawValue
    guard !bytes.isEmpty, bytes.count <= Int(Int32.max) else { return nil }
    let handle = bytes.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) {
        ParsedDocument(
          htmlReadMemory($0.baseAddress, Int32($0.count), nil, encoding, Int32(options)))
      }
    }
    return handle.map { $0.tree(isHTML: true) }
  }

  /// libxml2's version, for logs and `lumen extract`.
  static var libraryVersion: String { LIBXML_DOTTED_VERSION }
}

/// Owns one `xmlDoc` and frees it; lives only while its tree is being copied.
private final class ParsedDocument {
  private let document: xmlDocPtr

  init?(_ document: xmlDocPtr?) {
    guard let document else { return nil }
    self.document = document
  }

  deinit { xmlFreeDoc(document) }

  /// Copies the document depth-first with an explicit stack: no recursion, whatever the depth.
  func tree(isHTML: Bool) -> MarkupTree {
    var tree = MarkupTree()
    // Each open element: its tree index and the index of the last child appended so far.
    var open: [(index: Int, lastChild: Int)] = [(-1, -1)]
    var node = document.pointee.children
    while let current = node {
      let parent = open[open.count - 1]
      var descend = false
      switch current.pointee.type {
      case XML_ELEMENT_NODE:
        let element = MarkupTree.Node(
          kind: .element, name: Self.string(current.pointee.name, lowercased: isHTML),
          namespace: isHTML
            ? nil : current.pointee.ns.flatMap { Self.optionalString($0.pointee.href) },
          attributes: Self.attributes(of: current, isHTML: isHTML), text: "", parent: parent.index)
        let index = tree.append(element, previousSibling: parent.lastChild)
        open[open.count - 1].lastChild = index
        if current.pointee.children != nil {
          open.append((index, -1))
          descend = true
        }
      case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
        let text = MarkupTree.Node(
          kind: .text, name: "", namespace: nil, attributes: [],
          text: Self.string(current.pointee.content), parent: parent.index)
        open[open.count - 1].lastChild = tree.append(text, previousSibling: parent.lastChild)
      default:
        // Comments, processing instructions, DTDs and entity references: not content we index,
        // and an entity reference's children are the (possibly exponential) entity itself.
        break
      }
      if descend {
        node = current.pointee.children
        continue
      }
      var climb: xmlNodePtr? = current
      node = nil
      while let here = climb {
        if let next = here.pointee.next {
          node = next
          break
        }
        guard let up = here.pointee.parent,
          UnsafeMutableRawPointer(up) != UnsafeMutableRawPointer(document)
        else { break }
        open.removeLast()
        climb = up
      }
    }
    return tree
  }

  private static func attributes(of element: xmlNodePtr, isHTML: Bool) -> [MarkupTree.Attribute] {
    var result: [MarkupTree.Attribute] = []
    var attribute = element.pointee.properties
    while let current = attribute {
      var value = ""
      var piece = current.pointee.children
      while let text = piece {
        if text.pointee.type == XML_TEXT_NODE { value += string(text.pointee.content) }
        piece = text.pointee.next
      }
      result.append(
        MarkupTree.Attribute(
          name: string(current.pointee.name, lowercased: isHTML),
          namespace: isHTML ? nil : current.pointee.ns.flatMap { optionalString($0.pointee.href) },
          value: value))
      attribute = current.pointee.next
    }
    return result
  }

  private static func string(_ pointer: UnsafePointer<xmlChar>?, lowercased: Bool = false) -> String
  {
    guard let pointer else { return "" }
    let value = String(cString: pointer)
    return lowercased ? value.lowercased() : value
  }

  private static func optionalString(_ pointer: UnsafePointer<xmlChar>?) -> String? {
    pointer.map { String(cString: $0) }
  }
}
