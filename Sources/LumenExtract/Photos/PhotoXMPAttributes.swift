import Foundation
import LumenModel

/// Fills in, from XMP, the photo attributes EXIF did not give: an editor may keep camera data
/// only in XMP (GIMP and Photoshop Elements do when they rewrite a file), and XMP never
/// overrides EXIF, which is what the camera wrote.
struct PhotoXMPAttributes {
  let packet: PhotoXMP

  func apply(to attributes: inout AttributeSet) {
    func fill(_ key: AttributeKey, _ value: AttributeValue?) {
      guard attributes.first(key) == nil, let value else { return }
      attributes.set(value, for: key)
    }
    fill(.acquisitionMake, text("tiff:Make"))
    fill(.acquisitionModel, text("tiff:Model"))
    fill(.lensModel, text("exifEX:LensModel") ?? text("aux:Lens"))
    if let orientation = number("tiff:Orientation"), (1...8).contains(orientation) {
      fill(.orientation, .number(orientation))
    }
    let fNumber = number("exif:FNumber").flatMap { $0 > 0 ? $0 : nil }
    fill(.fNumber, fNumber.map(AttributeValue.number))
    if let apex = number("exif:ApertureValue") {
      fill(.aperture, .number(apex))
    } else if let fNumber {
      fill(.aperture, .number(2 * log2(fNumber)))
    }
    fill(.exposureTime, number("exif:ExposureTime").flatMap { $0 > 0 ? .number($0) : nil })
    fill(.focalLength, number("exif:FocalLength").flatMap { $0 >= 0 ? .number($0) : nil })
    fill(
      .focalLength35mm,
      number("exif:FocalLengthIn35mmFilm").flatMap { $0 > 0 ? .number($0) : nil })
    fill(.isoSpeed, number("exif:ISOSpeedRatings").map(AttributeValue.number))
    if let fired = packet["exif:Flash/exif:Fired"]?.lowercased() {
      fill(.flashOn, .bool(fired == "true"))
    }
    if let date = packet["exif:DateTimeOriginal"].flatMap({ ISO8601Dates.parse($0) }) {
      fill(.contentCreationDate, .date(date))
    }
    if let latitude = coordinate("exif:GPSLatitude"), abs(latitude) <= 90 {
      fill(.latitude, .number(latitude))
    }
    if let longitude = coordinate("exif:GPSLongitude"), abs(longitude) <= 180 {
      fill(.longitude, .number(longitude))
    }
    if let altitude = number("exif:GPSAltitude") {
      fill(.altitude, .number(number("exif:GPSAltitudeRef") == 1 ? -altitude : altitude))
    }
  }

  private func text(_ name: String) -> AttributeValue? {
    packet[name].map(AttributeValue.text)
  }

  /// A number or an XMP rational ("14/5").
  func number(_ name: String) -> Double? {
    guard let raw = packet[name] else { return nil }
    let parts = raw.split(separator: "/", maxSplits: 1)
    if parts.count == 2 {
      guard let n = Double(parts[0]), let d = Double(parts[1]), d != 0 else { return nil }
      return n / d
    }
    return Double(raw).flatMap { $0.isFinite ? $0 : nil }
  }

  /// XMP's GPS coordinate, "DDD,MM,SSk" or "DDD,MM.mmk" with k one of N, S, E, W (the
  /// direction letter is sometimes left out, meaning north or east).
  func coordinate(_ name: String) -> Double? {
    guard var raw = packet[name]?.uppercased(), !raw.isEmpty else { return nil }
    var sign = 1.0
    if let last = raw.last, "NSEW".contains(last) {
      if last == "S" || last == "W" { sign = -1 }
      raw.removeLast()
    }
    let parts = raw.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
    guard !parts.isEmpty, parts.count <= 3, parts.allSatisfy({ $0 != nil && $0! >= 0 }) else {
      return nil
    }
    let values = parts.map { $0! }
    let degrees =
      values[0] + (values.count > 1 ? values[1] / 60 : 0)
      + (values.count > 2 ? values[2] / 3600 : 0)
    return sign * degrees
  }
}
