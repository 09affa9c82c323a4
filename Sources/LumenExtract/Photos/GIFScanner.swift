/// A GIF's logical screen size (GIF89a §18), the canvas every frame is drawn on.
struct GIFScanner {
  let file: BoundedFileReader

  func scan() -> ImageLayout {
    var layout = ImageLayout()
    guard let screen = file.bytes(at: 6, count: 4) else {
      layout.problems.append("GIF logical screen descriptor is cut off")
      return layout
    }
    let view = ByteView(screen, bigEndian: false)
    layout.setSize(view.u16(0), view.u16(2))
    return layout
  }
}
