import Foundation

/// Songs that lie: ID3v2 tags declaring frames of hundreds of megabytes, a real 16 MiB frame,
/// frames of size zero, and corpus songs cut short or with flipped bits.
struct MusicFiles {
  let folder: CorpusFolder
  let corpus: String

  func make(random: inout SeededRandom) throws {
    let audio = corpus + "/audio/"
    let mp3 = try Array(Data(contentsOf: URL(fileURLWithPath: audio + "cbr.mp3")))
    let stream = Array(mp3[Self.audioStart(mp3)...])
    // A tag and a frame that both claim ~256 MB; the file has a few bytes of it.
    try folder.write(
      "music/giant-id3-declared.mp3",
      id3(size: 0x0FFF_FFFF, frames: frame("TIT2", declared: 0x7FFF_FFF0, [3] + Bytes.ascii("Hi")))
        + stream,
      kind: "MP3 whose ID3 tag and TIT2 frame declare 256 MB and 2 GB")
    // A real 16 MiB picture frame.
    let picture =
      [0] + Bytes.ascii("image/jpeg\0") + [3, 0] + [UInt8](repeating: 0xAB, count: 16 << 20)
    let apic = frame("APIC", declared: UInt32(picture.count), picture)
    try folder.write(
      "music/giant-id3-real.mp3", id3(size: UInt32(apic.count), frames: apic) + stream,
      kind: "MP3 with a real 16 MiB APIC frame")
    // Frames of size zero, over and over.
    let zeros = (0..<50_000).flatMap { _ in frame("TXXX", declared: 0, []) }
    try folder.write(
      "music/zero-size-frames.mp3", id3(size: UInt32(zeros.count), frames: zeros) + stream,
      kind: "MP3 with 50,000 zero-size ID3 frames")
    for name in ["beets-full.mp3", "beets-full.flac", "beets-full.m4a", "beets-full.ogg"] {
      guard let bytes = try? Array(Data(contentsOf: URL(fileURLWithPath: audio + name))) else {
        continue
      }
      let ext = (name as NSString).pathExtension
      let cut = Int.random(in: 16..<max(17, bytes.count / 2), using: &random)
      try folder.write(
        "music/truncated.\(ext)", Array(bytes[..<cut]), kind: "\(name) cut at \(cut)")
      var flipped = bytes
      for _ in 0..<48 {
        let at = Int.random(in: 0..<min(flipped.count, 8192), using: &random)
        flipped[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
      }
      try folder.write("music/bitflip.\(ext)", flipped, kind: "\(name) with 48 flipped bits")
    }
  }

  private func id3(size: UInt32, frames: [UInt8]) -> [UInt8] {
    Bytes.ascii("ID3") + [3, 0, 0] + Bytes.syncsafe(size) + frames
  }

  /// An ID3v2.3 frame whose header declares `declared` bytes, followed by `data`.
  private func frame(_ id: String, declared: UInt32, _ data: [UInt8]) -> [UInt8] {
    Bytes.ascii(id) + Bytes.u32be(declared) + [0, 0] + data
  }

  /// Where the MPEG frames start: after an ID3v2 tag if there is one.
  static func audioStart(_ bytes: [UInt8]) -> Int {
    guard bytes.count > 10, bytes[0] == 0x49, bytes[1] == 0x44, bytes[2] == 0x33 else { return 0 }
    let size = bytes[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7f) }
    return min(bytes.count, 10 + size)
  }
}
