import LumenModel

/// Photos and other images: the real pixel size from the image data's own header (JPEG SOF,
/// PNG IHDR, GIF screen, WebP VP8/VP8L/VP8X, TIFF/DNG directories, HEIF `ispe`), and the camera
/// settings, date and position from EXIF through libexif.
///
/// The container is recognised by its bytes, not its name. What is readable is returned even
/// when part of the file is damaged (the damage goes into `problems`); only a file with no
/// recognisable image header at all is an error.
public struct PhotoExtractor: Extractor {
  public static let name = "photo"
  /// 1: first version.
  public static let version = 1

  public init() {}

  public func extract(_ request: ExtractionRequest) throws(ExtractionError) -> ExtractionOutcome {
    let file = try BoundedFileReader(
      path: request.fileSystemPath, maxBytes: request.limits.maxBytes)
    let (format, layout) = try Self.scan(file)

    var attributes = AttributeSet()
    var problems = layout.problems
    if let width = layout.pixelWidth, let height = layout.pixelHeight {
      attributes.set(.number(Double(width)), for: .pixelWidth)
      attributes.set(.number(Double(height)), for: .pixelHeight)
    }
    if let exif = layout.exif {
      if let document = ExifDocument(tiff: exif) {
        ExifAttributes(document: document).apply(to: &attributes)
      } else {
        problems.append("EXIF block could not be decoded")
      }
    }
    if let xmp = layout.xmp {
      if let packet = PhotoXMP(xmp) {
        PhotoXMPAttributes(packet: packet).apply(to: &attributes)
      } else {
        problems.append("XMP packet could not be parsed")
      }
    }
    if attributes.isEmpty {
      throw ExtractionError(
        .malformed, problems.first ?? "\(format.rawValue.uppercased()) header is unreadable")
    }
    if file.limit < file.fileSize && (attributes.first(.pixelWidth) == nil) {
      problems.append("image header lies beyond MaxBytes (\(file.limit) bytes)")
    }
    return ExtractionOutcome(attributes: attributes, problems: problems)
  }

  /// Recognises the container and reads its headers.
  static func scan(_ file: BoundedFileReader) throws(ExtractionError) -> (ImageFormat, ImageLayout)
  {
    guard !file.head.isEmpty else { throw ExtractionError(.malformed, "empty file") }
    guard let format = ImageFormat.sniff(file.head) else {
      throw ExtractionError(.unsupported, "not a JPEG, PNG, GIF, WebP, TIFF or HEIF image")
    }
    switch format {
    case .jpeg: return (format, JPEGScanner(file: file).scan())
    case .png: return (format, PNGScanner(file: file).scan())
    case .gif: return (format, GIFScanner(file: file).scan())
    case .webp: return (format, WebPScanner(file: file).scan())
    case .tiff: return (format, TIFFScanner(file: file).scan())
    case .heif: return (format, HEIFScanner(file: file).scan())
    }
  }
}
