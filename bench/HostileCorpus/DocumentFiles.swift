import Foundation
import ZIPFoundation

/// Documents that lie or attack: PDFs with a broken cross-reference table and objects that
/// contain themselves, zip bombs and path-traversal entry names in OOXML, ODF and EPUB, XML
/// billion-laughs and external entities, HTML nested 100,000 deep.
struct DocumentFiles {
  let folder: CorpusFolder
  /// A file outside the tree whose contents must never reach the index: the external entities
  /// point at it.
  let canary: String
  /// Uncompressed size of the zip bomb's document entry.
  let bombBytes: Int

  static let canaryText = "LUMENCANARYSECRET"

  func make() throws {
    try pdfs()
    try archives()
    try markup()
  }

  // MARK: PDF

  private func pdfs() throws {
    let brokenXref = """
      %PDF-1.4
      1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
      2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
      3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj
      4 0 obj << /Title (Broken xref) >> endobj
      xref
      0 5
      0000000000 65535 f 
      0000099999 00000 n 
      0000088888 00000 n 
      abcdefghij 00000 n 
      0000000001 00000 n 
      trailer << /Size 5 /Root 1 0 R /Info 4 0 R >>
      startxref
      987654
      %%EOF

      """
    try folder.write(
      "docs/broken-xref.pdf", text: brokenXref, kind: "PDF whose xref points nowhere")
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    let recursive = """
      %PDF-1.4
      1 0 obj << /Type /Catalog /Pages 2 0 R /Outlines 6 0 R >> endobj
      2 0 obj << /Type /Pages /Kids [2 0 R 3 0 R] /Count 2147483647 /Parent 2 0 R >> endobj
      3 0 obj << /Type /Page /Parent 3 0 R /Resources 3 0 R /Contents 3 0 R >> endobj
      4 0 obj << /Title 4 0 R /Author 5 0 R /Subject \(deep) /Keywords 4 0 R >> endobj
      5 0 obj 5 0 R endobj
      6 0 obj << /First 6 0 R /Last 6 0 R /Next 6 0 R /Count 99 >> endobj
      trailer << /Size 7 /Root 1 0 R /Info 4 0 R /Prev 0 >>
      %%EOF

      """
    try folder.write(
      "docs/recursive.pdf", text: recursive,
      kind:
        "PDF whose page tree, outline and info objects contain themselves; 100,000 nested arrays")
    try folder.write(
      "docs/empty-trailer.pdf", text: "%PDF-1.7\ntrailer << >>\n%%EOF\n", kind: "PDF with nothing")
  }

  // MARK: Archives

  private func archives() throws {
    let contentTypes = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>
      """
    let rels = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>
      """
    let core = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Bomb</dc:title></cp:coreProperties>
      """
    let documentHead = Bytes.ascii(
      "<?xml version=\"1.0\"?><w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body><w:p><w:r><w:t>"
    )
    let documentTail = Bytes.ascii("</w:t></w:r></w:p></w:body></w:document>")
    // The zip bomb: a document.xml of `bombBytes` that compresses a thousandfold.
    try zip(
      "docs/zip-bomb.docx", kind: "OOXML whose document.xml inflates to \(bombBytes >> 20) MiB",
      entries: [
        ("[Content_Types].xml", .text(contentTypes)), ("_rels/.rels", .text(rels)),
        ("docProps/core.xml", .text(core)),
        (
          "word/document.xml",
          .generated(head: documentHead, fill: 0x41, size: bombBytes, tail: documentTail)
        ),
      ])
    let xxeCore = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE cp:coreProperties [<!ENTITY secret SYSTEM "file://\(canary)">]>
      <cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>&secret;</dc:title><dc:creator>&secret;</dc:creator></cp:coreProperties>
      """
    try zip(
      "docs/xxe.docx", kind: "OOXML whose core.xml pulls the canary file in as an external entity",
      entries: [
        ("[Content_Types].xml", .text(contentTypes)), ("_rels/.rels", .text(rels)),
        ("docProps/core.xml", .text(xxeCore)),
        (
          "word/document.xml",
          .text(
            "<w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"/>"
          )
        ),
      ])
    try zip(
      "docs/traversal.docx", kind: "OOXML with ../ and absolute entry names",
      entries: [
        ("[Content_Types].xml", .text(contentTypes)), ("_rels/.rels", .text(rels)),
        ("../../../../../../tmp/lumen-traversal-docx", .text("escaped")),
        ("/tmp/lumen-traversal-absolute", .text("escaped")),
        ("docProps/core.xml", .text(core)),
      ])
    let laughs = billionLaughs(
      root: "office:document-meta", body: "<office:meta><dc:title>&lol9;</dc:title></office:meta>")
    try zip(
      "docs/billion-laughs.odt", kind: "ODF whose meta.xml is a billion-laughs entity bomb",
      entries: [
        ("mimetype", .stored("application/vnd.oasis.opendocument.text")),
        ("meta.xml", .text(laughs)),
        ("../../../../tmp/lumen-traversal-odt", .text("escaped")),
        (
          "content.xml",
          .text(
            "<office:document-content xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\"/>"
          )
        ),
      ])
    try zip(
      "docs/traversal.epub", kind: "EPUB with ../ entry names and a container pointing outside",
      entries: [
        ("mimetype", .stored("application/epub+zip")),
        (
          "META-INF/container.xml",
          .text(
            """
            <?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="../../../../etc/passwd" media-type="application/oebps-package+xml"/></rootfiles></container>
            """)
        ),
        ("../../../../tmp/lumen-traversal-epub", .text("escaped")),
      ])
    try zip(
      "docs/epub-bomb.epub", kind: "EPUB whose package document inflates to \(bombBytes >> 20) MiB",
      entries: [
        ("mimetype", .stored("application/epub+zip")),
        (
          "META-INF/container.xml",
          .text(
            """
            <?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>
            """)
        ),
        (
          "content.opf",
          .generated(
            head: Bytes.ascii("<package><metadata><title>"), fill: 0x20, size: bombBytes,
            tail: Bytes.ascii("</title></metadata></package>"))
        ),
      ])
  }

  private enum Entry {
    case text(String)
    /// Stored uncompressed, as ODF and EPUB require for `mimetype`.
    case stored(String)
    case generated(head: [UInt8], fill: UInt8, size: Int, tail: [UInt8])
  }

  private func zip(_ relative: String, kind: String, entries: [(String, Entry)]) throws {
    let url = URL(fileURLWithPath: folder.path(relative))
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try? FileManager.default.removeItem(at: url)
    let archive = try Archive(url: url, accessMode: .create)
    for (name, entry) in entries {
      switch entry {
      case .text(let text), .stored(let text):
        let data = Data(text.utf8)
        let method: CompressionMethod
        if case .stored = entry { method = .none } else { method = .deflate }
        try archive.addEntry(
          with: name, type: .file, uncompressedSize: Int64(data.count),
          compressionMethod: method
        ) { position, size in data.subdata(in: Int(position)..<(Int(position) + size)) }
      case .generated(let head, let fill, let size, let tail):
        let total = head.count + size + tail.count
        try archive.addEntry(
          with: name, type: .file, uncompressedSize: Int64(total), compressionMethod: .deflate,
          bufferSize: 1 << 20
        ) { position, count in
          // Filler everywhere, then the head and tail laid over the part of them in range.
          var chunk = [UInt8](repeating: fill, count: count)
          let start = Int(position)
          for (offset, byte) in head.enumerated() where offset >= start && offset < start + count {
            chunk[offset - start] = byte
          }
          let tailStart = head.count + size
          for (offset, byte) in tail.enumerated() {
            let at = tailStart + offset
            if at >= start && at < start + count { chunk[at - start] = byte }
          }
          return Data(chunk)
        }
      }
    }
    folder.noteMade(relative, kind: kind)
  }

  // MARK: XML and HTML

  private func markup() throws {
    try folder.write(
      "docs/billion-laughs.xml",
      text: billionLaughs(root: "lolz", body: "<title>&lol9;</title>"),
      kind: "XML billion-laughs entity bomb")
    try folder.write(
      "docs/billion-laughs.svg",
      text: billionLaughs(root: "svg", body: "<title>&lol9;</title>"),
      kind: "SVG billion-laughs entity bomb")
    try folder.write(
      "docs/xxe.xml",
      text: """
        <?xml version="1.0"?>
        <!DOCTYPE doc [<!ENTITY secret SYSTEM "file://\(canary)"><!ENTITY % remote SYSTEM "http://127.0.0.1:9/evil.dtd"> %remote;]>
        <doc><title>&secret;</title></doc>

        """, kind: "XML with an external entity (the canary) and a remote parameter entity")
    try folder.write(
      "docs/xxe.html",
      text: """
        <!DOCTYPE html [<!ENTITY secret SYSTEM "file://\(canary)">]>
        <html><head><title>&secret;</title><meta name="description" content="&secret;"></head>
        <body><p>&secret;</p><script type="application/ld+json">{"@type":"Article","name":"&secret;"}</script></body></html>

        """, kind: "HTML with an external entity (the canary)")
    let depth = 100_000
    try folder.write(
      "docs/nested.html",
      text: "<html><head><title>Deep</title></head><body>"
        + String(repeating: "<div>", count: depth)
        + "bottom" + String(repeating: "</div>", count: depth) + "</body></html>\n",
      kind: "HTML nested 100,000 levels deep")
    try folder.write(
      "docs/nested-microdata.html",
      text: "<html><body>"
        + String(
          repeating:
            "<div itemscope itemtype=\"https://schema.org/Thing\"><span itemprop=\"name\">x</span>",
          count: depth)
        + String(repeating: "</div>", count: depth) + "</body></html>\n",
      kind: "HTML with 100,000 nested microdata items")
  }

  private func billionLaughs(root: String, body: String) -> String {
    var entities = "<!ENTITY lol \"lol\">"
    for level in 1...9 {
      let previous = level == 1 ? "lol" : "lol\(level - 1)"
      entities += "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">"
    }
    return """
      <?xml version="1.0"?>
      <!DOCTYPE \(root) [\(entities)]>
      <\(root) xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/">\(body)</\(root)>

      """
  }
}
