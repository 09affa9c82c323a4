import Foundation
import LumenModel
import Testing

@testable import LumenExtract

/// The photo extractor against exiftool 12.57 (expected/images.jsonl) over the 71 corpus
/// images, field by field.
@Suite struct PhotoOracleTests {
  /// How Lumen's attribute and exiftool's field are compared.
  enum Comparison: Sendable {
    /// Relative tolerance (the 1%) with an absolute floor.
    case number(relative: Double, absolute: Double)
    /// The same number exactly (pixel counts, orientation, ISO).
    case exact
    /// Exact text after trimming.
    case text
    /// `flashOn` against bit 0 ("flash fired") of the raw Flash field.
    case flashFired
    /// APEX aperture against 2·log2(FNumber): exiftool prints no ApertureValue with the options
    /// the corpus used, so the oracle's FNumber stands in for it.
    case apertureFromFNumber
    /// The instant of DateTimeOriginal: exiftool's zone-less string read in the local zone, or
    /// in the file's OffsetTimeOriginal zone when it has one.
    case dateTimeOriginal
  }

  struct Field: Sendable, CustomStringConvertible {
    let key: AttributeKey
    let oracle: String
    let comparison: Comparison
    /// Every disagreement left is allow-listed below; the threshold keeps the allow-list from
    /// quietly growing into an excuse for a regression.
    let threshold: Double
    var description: String { key.name }
  }

  static let fields: [Field] = [
    Field(key: .pixelWidth, oracle: "ImageWidth", comparison: .exact, threshold: 0.98),
    Field(key: .pixelHeight, oracle: "ImageHeight", comparison: .exact, threshold: 0.98),
    Field(
      key: .fNumber, oracle: "FNumber", comparison: .number(relative: 0.01, absolute: 0),
      threshold: 0.95),
    // Derived from FNumber, so every file whose ApertureValue and FNumber disagree counts
    // against it (allow-listed below).
    Field(
      key: .aperture, oracle: "FNumber", comparison: .apertureFromFNumber, threshold: 0.85),
    Field(
      key: .focalLength, oracle: "FocalLength", comparison: .number(relative: 0.01, absolute: 0),
      threshold: 0.95),
    Field(
      key: .exposureTime, oracle: "ExposureTime",
      comparison: .number(relative: 0.01, absolute: 0), threshold: 0.95),
    // Three Canon files have ISO only in their MakerNote (allow-listed below).
    Field(key: .isoSpeed, oracle: "ISO", comparison: .exact, threshold: 0.9),
    Field(key: .flashOn, oracle: "Flash", comparison: .flashFired, threshold: 0.95),
    Field(key: .acquisitionMake, oracle: "Make", comparison: .text, threshold: 0.95),
    Field(key: .acquisitionModel, oracle: "Model", comparison: .text, threshold: 0.95),
    // Only six images name a lens; two of those only in XMP's aux:Lens (allow-listed below).
    Field(key: .lensModel, oracle: "LensModel", comparison: .text, threshold: 0.6),
    Field(key: .orientation, oracle: "Orientation", comparison: .exact, threshold: 0.95),
    Field(
      key: .contentCreationDate, oracle: "DateTimeOriginal", comparison: .dateTimeOriginal,
      threshold: 0.95),
    // Coordinates: 1e-6° is about 11 cm; 1% of a latitude would be tens of kilometres.
    Field(
      key: .latitude, oracle: "GPSLatitude", comparison: .number(relative: 0, absolute: 1e-6),
      threshold: 0.95),
    Field(
      key: .longitude, oracle: "GPSLongitude", comparison: .number(relative: 0, absolute: 1e-6),
      threshold: 0.95),
    // Eight files: one allow-listed disagreement is 12.5%.
    Field(
      key: .altitude, oracle: "GPSAltitude", comparison: .number(relative: 0.01, absolute: 0),
      threshold: 0.85),
  ]

  /// Disagreements that remain, each with why. Key: "file field".
  static let allowed: [String: String] = {
    var list: [String: String] = [:]
    // olympus-d320l.jpg has no EXIF at all: exiftool reads these from Olympus's proprietary
    // pre-EXIF PictureInfo segment, which no EXIF library decodes.
    for field in ["fNumber", "aperture", "exposureTime", "flashOn", "contentCreationDate"] {
      list["images/olympus-d320l.jpg \(field)"] = "Olympus PictureInfo, not EXIF"
    }
    // sony-powershota5.jpg (a Canon PowerShot A5, despite the name) carries Canon's pre-EXIF
    // CIFF block instead of EXIF.
    for field in ["focalLength", "acquisitionMake", "acquisitionModel", "contentCreationDate"] {
      list["images/sony-powershota5.jpg \(field)"] = "Canon CIFF, not EXIF"
    }
    // Lumen is right: the oracle's aperture is derived from FNumber, and these files'
    // ApertureValue contradicts their FNumber. Lumen reports the ApertureValue the file states.
    list["images/Ricoh_Caplio_RR330.jpg aperture"] = "ApertureValue says f/4, FNumber f/2.88"
    list["images/testJPEG_GEO_2.jpg aperture"] = "ApertureValue says f/2.8, FNumber f/2.6"
    // Lumen is right: FNumber 0.64 is impossible for a camera lens; ApertureValue (APEX 8,
    // f/16) is plausible.
    list["images/exiftool-GPS.jpg aperture"] = "FNumber 0.64 is garbage; ApertureValue is f/16"
    // Lumen is right: these files have an ApertureValue but no FNumber, so the FNumber-derived
    // oracle has nothing to compare with.
    list["images/ricoh-rdc5300.jpg aperture"] = "ApertureValue without FNumber"
    list["images/sony-d700.jpg aperture"] = "ApertureValue without FNumber"
    // No EXIF ISO tag; exiftool computes ISO from Canon MakerNote fields.
    for file in ["22-canon_tags.jpg", "Canon_DIGITAL_IXUS_400.jpg", "canon-ixus.jpg"] {
      list["images/\(file) isoSpeed"] = "ISO only in Canon MakerNote"
    }
    // Lumen is right: EXIF ISO is 100; the oracle's 6 is the Pentax MakerNote's raw ISO index
    // (exiftool -n prints the index, which means ISO 100 in Pentax's table).
    list["images/exiftool-Pentax.jpg isoSpeed"] = "oracle prints Pentax's raw ISO index"
    // Lumen is right: the GPS IFD has GPSAltitude 42.123 m and no GPSAltitudeRef, whose EXIF
    // default is 0 (above sea level); exiftool's Composite:GPSAltitude requires the reference.
    list["images/87_OSError.jpg altitude"] = "GPSAltitudeRef absent; EXIF default is 0"
    // Lumen is right: the lens is named only in XMP's aux:Lens, which exiftool reports as
    // "Lens" (here "100.0 mm f/2.8" and "18.0-55.0 mm"), not under LensModel.
    list["images/Nikon_D70.jpg lensModel"] = "XMP aux:Lens; exiftool calls it Lens"
    list["images/exiftool-DNG.dng lensModel"] = "XMP aux:Lens; exiftool calls it Lens"
    return list
  }()

  struct Run: Sendable {
    var fields: [FieldAgreement]
    var failures: [String]
  }

  static let run: Run = {
    var agreements = fields.map { FieldAgreement(field: $0.key.name) }
    var failures: [String] = []
    let records: [OracleRecord]
    let service: ExtractionService
    do {
      records = try OracleRecord.load("images")
      service = ExtractionService(
        rules: try RuleSet.load(shippedDirectory: TestPaths.rules, userDirectory: nil))
    } catch {
      return Run(fields: agreements, failures: ["setup: \(error)"])
    }
    for record in records {
      let mime = record.texts["MIMEType"] ?? "image/jpeg"
      let result = service.extract(ExtractionJob(path: record.path, mimeType: mime))
      guard let outcome = result.outcome else {
        failures.append("\(record.file): \(result.failures)")
        continue
      }
      let offset = offsetTimeOriginal(record.path)
      for (index, field) in fields.enumerated() {
        compare(field, outcome.attributes, record, offset: offset, into: &agreements[index])
      }
    }
    return Run(fields: agreements, failures: failures)
  }()

  static func offsetTimeOriginal(_ path: String) -> String? {
    guard let file = try? BoundedFileReader(path: FaithfulPath.encode(path), maxBytes: 1 << 30),
      let (_, layout) = try? PhotoExtractor.scan(file), let tiff = layout.exif,
      let document = ExifDocument(tiff: tiff)
    else { return nil }
    return ExifAttributes(document: document).offsetTimeOriginal
  }

  static func compare(
    _ field: Field, _ attributes: AttributeSet, _ record: OracleRecord, offset: String?,
    into agreement: inout FieldAgreement
  ) {
    let value = attributes.first(field.key)
    switch field.comparison {
    case .number(let relative, let absolute):
      agreement.record(
        file: record.file, lumen: value?.number, oracle: oracleNumber(field, record)
      ) { FieldAgreement.close($0, $1, relative: relative, absolute: absolute) }
    case .exact:
      agreement.record(
        file: record.file, lumen: value?.number, oracle: record.numbers[field.oracle], same: ==)
    case .text:
      agreement.record(
        file: record.file, lumen: value?.text,
        oracle: record.texts[field.oracle]?.trimmingCharacters(in: .whitespaces), same: ==)
    case .flashFired:
      agreement.record(
        file: record.file, lumen: value?.bool,
        oracle: record.numbers[field.oracle].map { Int($0) & 1 == 1 }, same: ==)
    case .apertureFromFNumber:
      let expected = record.numbers[field.oracle].flatMap { $0 > 0 ? 2 * log2($0) : nil }
      agreement.record(file: record.file, lumen: value?.number, oracle: expected) {
        FieldAgreement.close($0, $1, relative: 0.01, absolute: 0.01)
      }
    case .dateTimeOriginal:
      let expected = record.texts[field.oracle].flatMap { ISO8601Dates.parse($0 + (offset ?? "")) }
      agreement.record(file: record.file, lumen: value?.date, oracle: expected) {
        abs($0.timeIntervalSince($1)) < 1
      }
    }
  }

  /// exiftool's Composite:GPSLatitude/Longitude need the EXIF GPS IFD; its GPSPosition
  /// ("lat lon") also comes from XMP, so it stands in where the composite is absent.
  static func oracleNumber(_ field: Field, _ record: OracleRecord) -> Double? {
    if let value = record.numbers[field.oracle] { return value }
    guard field.key == .latitude || field.key == .longitude,
      let position = record.texts["GPSPosition"]?.split(separator: " "), position.count == 2
    else { return nil }
    return Double(position[field.key == .latitude ? 0 : 1])
  }

  @Test func everyImageIsRead() {
    #expect(Self.run.failures.isEmpty, "\(Self.run.failures)")
  }

  @Test(arguments: fields)
  func agreesWithExiftool(_ field: Field) {
    Self.run.fields.expectAgreement(
      field.key.name, threshold: field.threshold, allowed: Self.allowed)
  }

  @Test func allowListHasNoStaleEntries() {
    Self.run.fields.expectNoStaleEntries(in: Self.allowed)
  }

  @Test func printsAgreementTable() {
    print(FieldAgreement.table(Self.run.fields, title: "Photos vs exiftool 12.57 (71 images)"))
    for field in Self.run.fields {
      for disagreement in field.disagreements {
        print("  \(field.field): \(disagreement)")
      }
    }
    #expect(Self.run.fields.count == Self.fields.count)
  }
}
