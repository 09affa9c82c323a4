/// Page 1's size in points, as pdfinfo reports it: the crop box (which defaults to, and is
/// clipped by, the media box), both inheritable from the page tree; `/Rotate` is reported
/// apart and does not swap width and height.
struct PDFPageGeometry: Equatable {
  let width: Double
  let height: Double
  let rotation: Int

  /// Walks from /Root/Pages down the first kids to page 1, never recursing and never looping
  /// (a hostile page tree can be cyclic or arbitrarily deep).
  init?(document: QPDFDocument, pages: PDFObject) {
    var node = pages
    var mediaBox: [Double]? = nil
    var cropBox: [Double]? = nil
    var rotate: Int? = nil
    var visited: Set<Int> = []
    for _ in 0..<64 {
      if let id = document.identity(node), !visited.insert(id).inserted { return nil }
      if let box = document.value(node, "/MediaBox").flatMap({ Self.box(document, $0) }) {
        mediaBox = box
      }
      if let box = document.value(node, "/CropBox").flatMap({ Self.box(document, $0) }) {
        cropBox = box
      }
      if let value = document.value(node, "/Rotate").flatMap(document.integer) { rotate = value }
      guard let kids = document.value(node, "/Kids").flatMap(document.array) else { break }
      guard let first = kids.first else { return nil }
      node = first
    }
    guard let media = mediaBox else { return nil }
    var crop = cropBox ?? media
    crop = [
      max(crop[0], media[0]), max(crop[1], media[1]), min(crop[2], media[2]),
      min(crop[3], media[3]),
    ]
    if crop[2] <= crop[0] || crop[3] <= crop[1] { crop = media }
    width = crop[2] - crop[0]
    height = crop[3] - crop[1]
    let normalized = ((rotate ?? 0) % 360 + 360) % 360
    rotation = normalized.isMultiple(of: 90) ? normalized : 0
    guard width > 0, height > 0 else { return nil }
  }

  /// A rectangle as [x1, y1, x2, y2] with x1 < x2 and y1 < y2.
  private static func box(_ document: QPDFDocument, _ object: PDFObject) -> [Double]? {
    guard let items = document.array(object), items.count == 4 else { return nil }
    let values = items.compactMap(document.number)
    guard values.count == 4, values.allSatisfy(\.isFinite) else { return nil }
    return [
      min(values[0], values[2]), min(values[1], values[3]), max(values[0], values[2]),
      max(values[1], values[3]),
    ]
  }
}
