import Foundation

/// What is hostile about a file system rather than a format: 1 GiB sparse files that look
/// like photos, songs and documents, FIFOs and device nodes (opening one would block or read
/// forever), symlink loops, names with newlines and bytes that are not UTF-8, a folder nobody
/// may read, and the files the fault-injection markers name.
struct SpecialFiles {
  let folder: CorpusFolder
  let corpus: String

  /// Path markers for `LUMEN_WORKER_FAULTS=crash=…;hang=…;hog=…`.
  static let faultMarkers = (
    crash: "lumen-fault-crash", hang: "lumen-fault-hang", hog: "lumen-fault-hog"
  )

  func make(sparseBytes: Int64) throws {
    let jpegHead: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Bytes.ascii("JFIF\0")
    try folder.sparse("big/sparse.jpg", size: sparseBytes, head: jpegHead, kind: "sparse JPEG")
    try folder.sparse(
      "big/sparse.mp3", size: sparseBytes, head: Bytes.ascii("ID3") + [3, 0, 0, 0, 0, 0, 0],
      kind: "sparse MP3")
    try folder.sparse(
      "big/sparse.pdf", size: sparseBytes, head: Bytes.ascii("%PDF-1.4\n"), kind: "sparse PDF")
    try folder.sparse(
      "big/sparse.txt", size: sparseBytes, head: Bytes.ascii("text\n"), kind: "sparse text")
    try folder.sparse(
      "big/sparse.docx", size: sparseBytes, head: [0x50, 0x4B, 0x03, 0x04], kind: "sparse zip")

    try folder.fifo("special/fifo.jpg")
    try folder.characterDevice("special/null-device.mp3")

    try folder.symlink("links/loop-a", to: "loop-b", kind: "symlink loop a → b")
    try folder.symlink("links/loop-b", to: "loop-a", kind: "symlink loop b → a")
    try folder.symlink("links/self", to: "self", kind: "symlink to itself")
    try folder.symlink("links/up", to: "..", kind: "symlink to its own parent folder")
    try folder.symlink("links/dangling.jpg", to: "/nonexistent/photo.jpg", kind: "dangling symlink")
    try folder.symlink("links/etc-passwd", to: "/etc/passwd", kind: "symlink out of the tree")

    try folder.rawName(
      in: "names", Bytes.ascii("line\nbreak.txt"), contents: "newline", kind: "name with a newline")
    try folder.rawName(
      in: "names", Bytes.ascii("not-utf8-") + [0xFF, 0xFE, 0x80] + Bytes.ascii(".txt"),
      contents: "bytes", kind: "name that is not UTF-8")
    try folder.rawName(
      in: "names", Bytes.ascii("tab\tand\u{1b}[31mescape.txt"), contents: "ctl",
      kind: "name with a tab and a terminal escape")
    try folder.rawName(
      in: "names", Array(repeating: UInt8(ascii: "n"), count: 255), contents: "long",
      kind: "name of 255 bytes")

    try folder.write(
      "locked/secret.txt", text: "nobody reads this\n", kind: "file in a mode-000 folder")
    try folder.write("locked-file.txt", text: "mode 000\n", kind: "mode-000 file")
    try folder.chmod("locked", 0)
    try folder.chmod("locked-file.txt", 0)

    let photo = try Array(Data(contentsOf: URL(fileURLWithPath: corpus + "/images/DSCN0010.jpg")))
    for marker in [Self.faultMarkers.crash, Self.faultMarkers.hang, Self.faultMarkers.hog] {
      try folder.write(
        "faults/\(marker).jpg", photo, kind: "photo the worker faults on (\(marker))")
    }
  }
}
