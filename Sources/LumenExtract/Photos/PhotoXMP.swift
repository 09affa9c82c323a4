import CXML2
import Foundation

/// The properties of an XMP packet (Adobe's RDF/XML metadata that editors and many phones
/// write beside or instead of EXIF), flattened to `prefix:Name` → text for the namespaces a
/// photo index reads: `tiff:Make`, `exif:FNumber`, `exif:ISOSpeedRatings` (an rdf:Seq's first
/// item), `exif:Flash/exif:Fired` (a structure's field).
///
/// Parsed by libxml2 with the network off and entities left unexpanded, so a packet cannot
/// fetch a DTD or blow up through entity expansion.
struct PhotoXMP {
  static let namespaces: [String: String] = [
    "http://ns.adobe.com/tiff/1.0/": "tiff",
    "http://ns.adobe.com/exif/1.0/": "exif",
    "http://cipa.jp/exif/1.0/": "exifEX",
    "http://ns.adobe.com/exif/1.0/aux/": "aux",
  ]
  static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
  static let maxBytes = 4 << 20
  static let maxNodes = 100_000

  private(set) var properties: [String: String] = [:]

  init?(_ bytes: [UInt8]) {
    guard !bytes.isEmpty, bytes.count <= Self.maxBytes else { return nil }
    let options = Int32(
      XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
    let parsed = bytes.withUnsafeBufferPointer { buffer in
      buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
        xmlReadMemory($0, Int32(buffer.count), "xmp.xml", nil, options)
      }
    }
    guard let document = parsed else { return nil }
    defer { xmlFreeDoc(document) }
    var budget = Self.maxNodes
    visit(xmlDocGetRootElement(document), parent: nil, budget: &budget)
    if properties.isEmpty { return nil }
  }

  subscript(name: String) -> String? { properties[name] }

  /// Records attributes and elements in the known namespaces; `parent` names the enclosing
  /// property when inside a structure.
  private mutating func visit(_ first: xmlNodePtr?, parent: String?, budget: inout Int) {
    var node = first
    while let current = node, budget > 0 {
      budget -= 1
      defer { node = current.pointee.next }
      guard current.pointee.type == XML_ELEMENT_NODE else { continue }
      let name = Self.qualifiedName(current.pointee.ns, current.pointee.name)
      var attribute = current.pointee.properties
      while let a = attribute {
        if let key = Self.qualifiedName(a.pointee.ns, a.pointee.name),
          let value = Self.text(of: a.pointee.children)
        {
          record(parent.map { "\($0)/\(key)" } ?? (name.map { "\($0)/\(key)" } ?? key), value)
        }
        attribute = a.pointee.next
      }
      guard let name else {
        // rdf:RDF, rdf:Description, x:xmpmeta: look inside.
        visit(current.pointee.children, parent: parent, budget: &budget)
        continue
      }
      let key = parent.map { "\($0)/\(name)" } ?? name
      if let container = Self.firstChildElement(current), Self.isRDF(container) {
        let local = String(cString: container.pointee.name)
        if ["Seq", "Bag", "Alt"].contains(local) {
          if let item = Self.firstChildElement(container) {
            if let value = Self.text(of: item.pointee.children) { record(key, value) }
          }
        } else {
          // rdf:Description inside a property: a structure.
          visit(container.pointee.children, parent: key, budget: &budget)
        }
      } else if Self.firstChildElement(current) != nil {
        // rdf:parseType="Resource": the fields are direct children.
        visit(current.pointee.children, parent: key, budget: &budget)
      } else if let value = Self.text(of: current.pointee.children) {
        record(key, value)
      }
    }
  }

  private mutating func record(_ key: String, _ value: String) {
    let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
    if !trimmed.isEmpty, properties[key] == nil { properties[key] = trimmed }
  }

  private static func qualifiedName(_ ns: xmlNsPtr?, _ name: UnsafePointer<xmlChar>?) -> String? {
    guard let ns, let href = ns.pointee.href, let name else { return nil }
    guard let prefix = namespaces[String(cString: href)] else { return nil }
    return "\(prefix):\(String(cString: name))"
  }

  private static func isRDF(_ node: xmlNodePtr) -> Bool {
    guard let ns = node.pointee.ns, let href = ns.pointee.href else { return false }
    return String(cString: href) == rdf
  }

  private static func firstChildElement(_ node: xmlNodePtr) -> xmlNodePtr? {
    var child = node.pointee.children
    while let c = child {
      if c.pointee.type == XML_ELEMENT_NODE { return c }
      child = c.pointee.next
    }
    return nil
  }

  /// The concatenated text and CDATA of a node list (the value of an attribute or element).
  private static func text(of first: xmlNodePtr?) -> String? {
    var result = ""
    var node = first
    while let current = node {
      if current.pointee.type == XML_TEXT_NODE || current.pointee.type == XML_CDATA_SECTION_NODE,
        let content = current.pointee.content
      {
        result += String(cString: content)
      }
      node = current.pointee.next
    }
    return result.isEmpty ? nil : result
  }
}
