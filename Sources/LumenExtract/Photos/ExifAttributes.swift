import CExif
import Foundation
import LumenModel

/// Turns the EXIF tags an index cares about into Core Spotlight attributes. Values are taken as
/// the file states them; only impossible ones (a zero exposure, a latitude past the pole, an
/// orientation outside 1–8) are left out, because an index that stores them misleads queries.
struct ExifAttributes {
  let document: ExifDocument

  enum Tag {
    static let make: UInt32 = 0x010F
    static let model: UInt32 = 0x0110
    static let orientation: UInt32 = 0x0112
    static let exposureTime: UInt32 = 0x829A
    static let fNumber: UInt32 = 0x829D
    static let isoSpeedRatings: UInt32 = 0x8827
    static let isoSpeed: UInt32 = 0x8833
    static let dateTimeOriginal: UInt32 = 0x9003
    static let offsetTimeOriginal: UInt32 = 0x9011
    static let apertureValue: UInt32 = 0x9202
    static let flash: UInt32 = 0x9209
    static let focalLength: UInt32 = 0x920A
    static let focalLength35mm: UInt32 = 0xA405
    static let lensModel: UInt32 = 0xA434
    static let gpsLatitudeRef = UInt32(EXIF_TAG_GPS_LATITUDE_REF)
    static let gpsLatitude = UInt32(EXIF_TAG_GPS_LATITUDE)
    static let gpsLongitudeRef = UInt32(EXIF_TAG_GPS_LONGITUDE_REF)
    static let gpsLongitude = UInt32(EXIF_TAG_GPS_LONGITUDE)
    static let gpsAltitudeRef = UInt32(EXIF_TAG_GPS_ALTITUDE_REF)
    static let gpsAltitude = UInt32(EXIF_TAG_GPS_ALTITUDE)
  }

  func apply(to attributes: inout AttributeSet) {
    let ifd0 = EXIF_IFD_0
    let exif = EXIF_IFD_EXIF
    if let make = document.entry(Tag.make, in: ifd0)?.text {
      attributes.set(.text(make), for: .acquisitionMake)
    }
    if let model = document.entry(Tag.model, in: ifd0)?.text {
      attributes.set(.text(model), for: .acquisitionModel)
    }
    if let lens = document.entry(Tag.lensModel, in: exif)?.text {
      attributes.set(.text(lens), for: .lensModel)
    }
    if let orientation = document.entry(Tag.orientation, in: ifd0)?.number(),
      (1...8).contains(orientation)
    {
      attributes.set(.number(orientation), for: .orientation)
    }
    if let time = positive(Tag.exposureTime) { attributes.set(.number(time), for: .exposureTime) }
    let fNumber = positive(Tag.fNumber)
    if let fNumber { attributes.set(.number(fNumber), for: .fNumber) }
    if let apex = document.entry(Tag.apertureValue, in: exif)?.number(), apex.isFinite {
      attributes.set(.number(apex), for: .aperture)
    } else if let fNumber {
      // APEX aperture value: Av = 2·log2(N).
      attributes.set(.number(2 * log2(fNumber)), for: .aperture)
    }
    if let focal = nonNegative(Tag.focalLength) {
      attributes.set(.number(focal), for: .focalLength)
    }
    if let focal35 = positive(Tag.focalLength35mm) {
      attributes.set(.number(focal35), for: .focalLength35mm)
    }
    if let iso = isoSpeed { attributes.set(.number(iso), for: .isoSpeed) }
    if let flash = document.entry(Tag.flash, in: exif)?.number() {
      attributes.set(.bool(Int(flash) & 1 == 1), for: .flashOn)
    }
    if let date = creationDate { attributes.set(.date(date), for: .contentCreationDate) }
    applyGPS(to: &attributes)
  }

  /// ISOSpeedRatings, or the EXIF 2.3 ISOSpeed when the SHORT overflowed (65535 means "more").
  private var isoSpeed: Double? {
    let ratings = document.entry(Tag.isoSpeedRatings, in: EXIF_IFD_EXIF)?.number()
    if let ratings, ratings < 65535 { return ratings }
    return document.entry(Tag.isoSpeed, in: EXIF_IFD_EXIF)?.number() ?? ratings
  }

  /// EXIF 2.31's zone of DateTimeOriginal ("+02:00"), when the camera recorded one.
  var offsetTimeOriginal: String? {
    guard let offset = document.entry(Tag.offsetTimeOriginal, in: EXIF_IFD_EXIF)?.text,
      offset.count == 6, offset.first == "+" || offset.first == "-"
    else { return nil }
    return offset
  }

  /// DateTimeOriginal is local time without a zone; EXIF 2.31's OffsetTimeOriginal gives the
  /// zone when the camera knew it. Without it the time is read in the local zone, as every
  /// photo viewer does.
  private var creationDate: Date? {
    guard var text = document.entry(Tag.dateTimeOriginal, in: EXIF_IFD_EXIF)?.text else {
      return nil
    }
    if let offset = offsetTimeOriginal { text += offset }
    return ISO8601Dates.parse(text)
  }

  private func applyGPS(to attributes: inout AttributeSet) {
    let gps = EXIF_IFD_GPS
    if let latitude = degrees(Tag.gpsLatitude), latitude <= 90 {
      let south = document.entry(Tag.gpsLatitudeRef, in: gps)?.text?.uppercased() == "S"
      attributes.set(.number(south ? -latitude : latitude), for: .latitude)
    }
    if let longitude = degrees(Tag.gpsLongitude), longitude <= 180 {
      let west = document.entry(Tag.gpsLongitudeRef, in: gps)?.text?.uppercased() == "W"
      attributes.set(.number(west ? -longitude : longitude), for: .longitude)
    }
    if let altitude = document.entry(Tag.gpsAltitude, in: gps)?.number(), altitude.isFinite {
      // AltitudeRef 1 means below sea level.
      let below = document.entry(Tag.gpsAltitudeRef, in: gps)?.number() == 1
      attributes.set(.number(below ? -altitude : altitude), for: .altitude)
    }
  }

  /// Degrees, minutes, seconds as three rationals (some writers put everything in the first).
  private func degrees(_ tag: UInt32) -> Double? {
    guard let value = document.entry(tag, in: EXIF_IFD_GPS), value.count >= 1,
      let d = value.number(0)
    else { return nil }
    let m = value.number(1) ?? 0
    let s = value.number(2) ?? 0
    let total = d + m / 60 + s / 3600
    return total.isFinite && total >= 0 ? total : nil
  }

  private func positive(_ tag: UInt32) -> Double? {
    guard let value = document.entry(tag, in: EXIF_IFD_EXIF)?.number(), value.isFinite,
      value > 0
    else { return nil }
    return value
  }

  private func nonNegative(_ tag: UInt32) -> Double? {
    guard let value = document.entry(tag, in: EXIF_IFD_EXIF)?.number(), value.isFinite,
      value >= 0
    else { return nil }
    return value
  }
}
