import Foundation
import LumenModel
import LumenStore

/// A deterministic, realistic home folder of a million items: photos, screenshots, source
/// code, PDFs, music, notes, office files, and mail messages (non-file items with body text),
/// with the attributes the extractors would give them.
struct Corpus {
  var random: Random
  let root = "/home/user"
  private var folderCount = 0
  private var currentFolder = ""
  private var filesLeftInFolder = 0
  private var serial = 0
  private var namesInFolder: Set<String> = []

  init(seed: UInt64) { random = Random(seed: seed) }

  static let words = [
    "budget", "report", "quarterly", "invoice", "meeting", "notes", "paris", "london", "berlin",
    "summer", "winter", "holiday", "family", "project", "lumen", "draft", "final", "review",
    "design", "plan", "résumé", "café", "naïve", "Zürich", "São", "Paulo", "München", "data",
    "analysis", "letter", "contract", "proposal", "roadmap", "photo", "trip", "beach",
    "mountain", "garden", "kitchen", "recipe", "music", "concert", "album", "guitar", "piano",
    "server", "client", "index", "search", "query", "spotlight", "linux", "swift", "kernel",
    "backup", "archive", "scan", "tax", "receipt", "insurance", "school", "homework", "thesis",
    "chapter", "slides", "talk", "conference", "workshop", "lecture", "exam", "grade",
    "birthday", "wedding", "party", "friends", "dinner", "lunch", "breakfast", "coffee",
    "morning", "evening", "night", "river", "lake", "forest", "city", "village", "street",
    "station", "airport", "hotel", "museum", "gallery", "painting", "portrait", "landscape",
    "sunset", "sunrise", "cloud", "rain", "snow", "storm", "wind", "autumn", "spring",
  ]
  static let people = [
    "Alice Martin", "Bob Dupont", "Chloé Bernard", "David Müller", "Émilie Durand",
    "Frank Zhang", "Grace Hopper", "Hélène Petit", "Ivan Petrov", "Jürgen Schmidt",
    "Tim Cook", "Steve Jobs", "Ada Lovelace", "Linus Torvalds", "Yuki Tanaka",
  ]
  static let folders = [
    "Documents", "Pictures", "Music", "Downloads", "Projects", "Videos", "Desktop", "Mail",
  ]

  static let trees: [String: [String]] = [
    "public.jpeg": ["public.jpeg", "public.image", "public.data", "public.item", "public.content"],
    "public.png": ["public.png", "public.image", "public.data", "public.item", "public.content"],
    "public.heic": ["public.heic", "public.image", "public.data", "public.item", "public.content"],
    "com.adobe.pdf": [
      "com.adobe.pdf", "public.data", "public.item", "public.composite-content",
      "public.content",
    ],
    "public.mp3": [
      "public.mp3", "public.audio", "public.audiovisual-content", "public.data",
      "public.item", "public.content",
    ],
    "public.plain-text": [
      "public.plain-text", "public.text", "public.data", "public.item",
      "public.content",
    ],
    "public.swift-source": [
      "public.swift-source", "public.source-code", "public.plain-text",
      "public.text", "public.data", "public.item", "public.content",
    ],
    "public.c-source": [
      "public.c-source", "public.source-code", "public.plain-text",
      "public.text", "public.data", "public.item", "public.content",
    ],
    "net.daringfireball.markdown": [
      "net.daringfireball.markdown", "public.plain-text",
      "public.text", "public.data", "public.item", "public.content",
    ],
    "org.openxmlformats.spreadsheetml.sheet": [
      "org.openxmlformats.spreadsheetml.sheet",
      "public.spreadsheet", "public.data", "public.item", "public.content",
    ],
    "org.openxmlformats.wordprocessingml.document": [
      "org.openxmlformats.wordprocessingml.document", "public.composite-content", "public.data",
      "public.item", "public.content",
    ],
    "public.mpeg-4": [
      "public.mpeg-4", "public.movie", "public.audiovisual-content",
      "public.data", "public.item", "public.content",
    ],
    "public.zip-archive": ["public.zip-archive", "public.archive", "public.data", "public.item"],
    "public.message": ["public.message", "public.item"],
  ]

  /// 2015-01-01 … 2025-01-01 in Apple-epoch seconds.
  private mutating func date() -> Date {
    Date(timeIntervalSinceReferenceDate: random.double(in: 441_763_200...757_382_400))
  }

  private mutating func word() -> String { random.pick(Self.words) }

  private mutating func phrase(_ count: ClosedRange<Int>) -> String {
    (0..<random.int(in: count)).map { _ in word() }.joined(separator: " ")
  }

  private mutating func capitalized(_ text: String) -> String {
    text.prefix(1).uppercased() + text.dropFirst()
  }

  /// The next folder: twenty-odd files each, nested two to four deep under the home folder.
  private mutating func nextFolder() -> String {
    folderCount += 1
    var parts = [root, random.pick(Self.folders)]
    for _ in 0..<random.int(in: 1...3) { parts.append(capitalized(phrase(1...2))) }
    parts.append("\(folderCount)")
    return parts.joined(separator: "/")
  }

  enum Entry {
    case file(FileRecord)
    case message(SearchableItem)
  }

  mutating func next() -> Entry {
    serial += 1
    if random.chance(0.05) { return .message(message()) }
    if filesLeftInFolder == 0 {
      currentFolder = nextFolder()
      filesLeftInFolder = random.int(in: 5...35)
      namesInFolder = []
    }
    filesLeftInFolder -= 1
    var attributes = AttributeSet()
    let kind = random.int(in: 0..<100)
    let type: String
    let name: String
    switch kind {
    case 0..<30:
      type = random.chance(0.9) ? "public.jpeg" : "public.heic"
      name =
        random.chance(0.7)
        ? "IMG_\(random.int(in: 1000...9999)).\(type == "public.jpeg" ? "JPG" : "HEIC")"
        : "\(capitalized(phrase(1...3))) \(random.int(in: 1...999)).jpg"
      attributes.set(.number(Double(random.pick([4032, 3024, 6000, 1920]))), for: .pixelWidth)
      attributes.set(.number(Double(random.pick([3024, 4032, 4000, 1080]))), for: .pixelHeight)
      attributes.set(
        .text(random.pick(["Apple", "Canon", "Nikon", "FUJIFILM"])), for: .acquisitionMake)
      attributes.set(
        .text(random.pick(["iPhone 12", "EOS R6", "Z 6", "X-T4"])), for: .acquisitionModel)
      attributes.set(.number(random.pick([1.8, 2.8, 4, 5.6, 8])), for: .fNumber)
      if random.chance(0.4) {
        attributes.set(.number(random.double(in: -60...70)), for: .latitude)
        attributes.set(.number(random.double(in: -120...150)), for: .longitude)
      }
      if random.chance(0.1) {
        attributes.set([.text(word()), .text(word())], for: .keywords)
      }
    case 30..<40:
      type = "public.png"
      name =
        "Screenshot 20\(random.int(in: 15...24))-0\(random.int(in: 1...9))-1\(random.int(in: 0...9)) at \(random.int(in: 10...23)).\(random.int(in: 10...59)).\(random.int(in: 10...59)).png"
      attributes.set(.number(Double(random.pick([2560, 1920, 1440]))), for: .pixelWidth)
      attributes.set(.number(Double(random.pick([1600, 1080, 900]))), for: .pixelHeight)
    case 40..<55:
      let source = random.pick([
        "public.swift-source", "public.c-source", "net.daringfireball.markdown",
      ])
      type = source
      let base = (0..<random.int(in: 1...3)).map { _ in capitalized(word()) }.joined()
      name =
        base
        + (source == "public.swift-source" ? ".swift" : source == "public.c-source" ? ".c" : ".md")
    case 55..<65:
      type = "com.adobe.pdf"
      name =
        random.chance(0.5)
        ? "\(capitalized(phrase(1...3))) \(random.int(in: 2015...2024)).pdf"
        : "Invoice-\(random.int(in: 10000...99999)).pdf"
      attributes.set(.number(Double(random.int(in: 1...300))), for: .pageCount)
      if random.chance(0.6) { attributes.set(.text(capitalized(phrase(2...6))), for: .title) }
      if random.chance(0.5) {
        attributes.set(
          [.text(random.pick(Self.people)), .text(random.pick(Self.people))], for: .authors)
      }
    case 65..<73:
      type = "public.mp3"
      let title = capitalized(phrase(1...4))
      name = String(format: "%02d - ", random.int(in: 1...20)) + title + ".mp3"
      attributes.set(.text(title), for: .title)
      attributes.set(.number(random.double(in: 90...420)), for: .duration)
      attributes.set(.text(capitalized(phrase(1...3))), for: .album)
      attributes.set(.text(random.pick(Self.people)), for: .artist)
      attributes.set(
        .text(random.pick(["Rock", "Jazz", "Classical", "Pop", "Electronic"])), for: .musicalGenre)
      attributes.set(.number(Double(random.int(in: 1...20))), for: .audioTrackNumber)
    case 73..<82:
      type = "public.plain-text"
      name = "\(word())-\(word())-\(random.int(in: 1...999)).txt"
    case 82..<90:
      type =
        random.chance(0.5)
        ? "org.openxmlformats.spreadsheetml.sheet" : "org.openxmlformats.wordprocessingml.document"
      name =
        "\(capitalized(phrase(1...3))) \(random.int(in: 2015...2024))."
        + (type.hasSuffix("sheet") ? "xlsx" : "docx")
      if random.chance(0.5) { attributes.set([.text(random.pick(Self.people))], for: .authors) }
    case 90..<95:
      type = "public.mpeg-4"
      name = "VID_\(random.int(in: 1000...9999)).mp4"
      attributes.set(.number(random.double(in: 5...600)), for: .duration)
      attributes.set(.number(1920), for: .pixelWidth)
      attributes.set(.number(1080), for: .pixelHeight)
    default:
      type = "public.zip-archive"
      name = "\(word())-\(word()).zip"
    }
    // A folder never holds two files of the same name.
    let unique = namesInFolder.insert(name).inserted ? name : "\(serial) \(name)"
    let path = currentFolder + "/" + unique
    attributes.set(.text(path), for: .path)
    attributes.set(.text(String(path.split(separator: "/").last!)), for: .fileName)
    attributes.set(.text(type), for: .contentType)
    attributes.set(Self.trees[type]!.map(AttributeValue.text), for: .contentTypeTree)
    let size = Double(random.int(in: 200...5_000_000)) * (random.chance(0.05) ? 40 : 1)
    attributes.set(.number(size), for: .fileSize)
    let created = date()
    attributes.set(.date(created), for: .contentCreationDate)
    attributes.set(
      .date(created.addingTimeInterval(random.double(in: 0...86_400 * 400))),
      for: .contentModificationDate)
    let stamp = FileStamp(
      device: 2049, inode: UInt64(serial) + 1_000_000, size: Int64(size),
      modificationNanos: Int64(created.timeIntervalSince1970 * 1e9),
      changeNanos: Int64(created.timeIntervalSince1970 * 1e9))
    return .file(
      FileRecord(
        item: SearchableItem(
          uniqueIdentifier: path, domainIdentifier: "files", attributeSet: attributes),
        stamp: stamp, isDirectory: false,
        extractor: ExtractorStamp(
          name: type.contains("image") || type.hasSuffix("jpeg") ? "photo" : "document", version: 1)
      ))
  }

  private mutating func message() -> SearchableItem {
    var attributes = AttributeSet()
    attributes.set(.text(capitalized(phrase(2...7))), for: .title)
    attributes.set([.text(random.pick(Self.people))], for: .authors)
    attributes.set(.date(date()), for: .contentCreationDate)
    attributes.set(.text("public.message"), for: .contentType)
    attributes.set(Self.trees["public.message"]!.map(AttributeValue.text), for: .contentTypeTree)
    attributes.set(.text(capitalized(phrase(15...40)) + "."), for: .textContent)
    return SearchableItem(
      uniqueIdentifier: "message-\(serial)@example.org", domainIdentifier: "mail.inbox",
      attributeSet: attributes)
  }
}

/// SplitMix64, so every run builds the same corpus.
struct Random {
  private var state: UInt64
  init(seed: UInt64) { state = (seed &+ 1) &* 0xD1B5_4A32_D192_ED03 }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  mutating func int(in range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
  }
  mutating func int(in range: Range<Int>) -> Int {
    int(in: range.lowerBound...(range.upperBound - 1))
  }
  mutating func double(in range: ClosedRange<Double>) -> Double {
    range.lowerBound + Double(next() >> 11) / Double(1 << 53)
      * (range.upperBound - range.lowerBound)
  }
  mutating func chance(_ probability: Double) -> Bool { double(in: 0...1) < probability }
  mutating func pick<T>(_ list: [T]) -> T { list[int(in: 0..<list.count)] }
}
