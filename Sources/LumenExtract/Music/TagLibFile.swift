import CTagLib
import CTagShim
import Foundation
import LumenModel

/// One file opened by TagLib's C API, freed in `deinit`. TagLib reads the tags and stream
/// headers when the file is opened; the accessors below only copy them out.
///
/// The C API hands out strings the caller owns once string management is off (set once per
/// process), so each one is freed with `taglib_free` right after it is copied; with management
/// on, TagLib would keep every string in one global list until `taglib_tag_free_strings`, which
/// is neither bounded nor safe across threads.
final class TagLibFile {
  private let handle: UnsafeMutablePointer<TagLib_File>

  private static let configured: Bool = {
    taglib_set_string_management_enabled(0)
    taglib_set_strings_unicode(1)
    return true
  }()

  /// Opens `path` (FaithfulPath bytes). TagLib picks the format by the file's extension; when
  /// that fails (no or a wrong extension), the MIME type chooses one of the C API's types.
  init(path: [UInt8], mimeType: String) throws(ExtractionError) {
    _ = Self.configured
    let cPath = (path + [0]).map { CChar(bitPattern: $0) }
    var file = taglib_file_new(cPath)
    if let opened = file, taglib_file_is_valid(opened) == 0 {
      taglib_file_free(opened)
      file = nil
    }
    if file == nil, let type = Self.fileType(forMIME: mimeType) {
      file = taglib_file_new_type(cPath, type)
      if let opened = file, taglib_file_is_valid(opened) == 0 {
        taglib_file_free(opened)
        file = nil
      }
    }
    guard let file else {
      throw ExtractionError(.malformed, "TagLib cannot read it as \(mimeType)")
    }
    handle = file
  }

  deinit { taglib_file_free(handle) }

  struct BasicTag {
    var title, artist, album, genre: String?
    var year: Int?
    var track: Int?
  }

  /// What the C API's generic tag says (TagLib merges ID3v2, ID3v1, APE… into one view).
  var basicTag: BasicTag? {
    guard let tag = taglib_file_tag(handle) else { return nil }
    func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
      guard let pointer else { return nil }
      defer { taglib_free(pointer) }
      let value = String(cString: pointer).trimmingCharacters(in: .whitespacesAndNewlines)
      return value.isEmpty ? nil : value
    }
    let year = Int(taglib_tag_year(tag))
    let track = Int(taglib_tag_track(tag))
    return BasicTag(
      title: text(taglib_tag_title(tag)), artist: text(taglib_tag_artist(tag)),
      album: text(taglib_tag_album(tag)), genre: text(taglib_tag_genre(tag)),
      year: year > 0 ? year : nil, track: track > 0 ? track : nil)
  }

  /// Stream properties through the shim (milliseconds, codec), nil when TagLib found no stream.
  var audio: CTagShimAudio? {
    var properties = CTagShimAudio()
    guard ctagshim_audio(UnsafeRawPointer(handle), &properties) != 0 else { return nil }
    return properties
  }

  /// TagLib's property map (COMPOSER, DATE, TRACKNUMBER…): each key with its values in order.
  var properties: [String: [String]] {
    guard let raw = ctagshim_properties(UnsafeRawPointer(handle)) else { return [:] }
    defer { free(raw) }
    var map: [String: [String]] = [:]
    for line in String(cString: raw).split(separator: "\n") {
      guard let equals = line.firstIndex(of: "=") else { continue }
      let key = String(line[..<equals]).uppercased()
      let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
      guard !value.isEmpty else { continue }
      map[key, default: []].append(value)
    }
    return map
  }

  private static func fileType(forMIME mime: String) -> TagLib_File_Type? {
    switch mime.lowercased() {
    case "audio/mpeg", "audio/mp3", "audio/x-mp3", "audio/x-mpeg": TagLib_File_MPEG
    case "audio/flac", "audio/x-flac": TagLib_File_FLAC
    case "audio/ogg", "audio/x-vorbis+ogg", "audio/vorbis", "application/ogg": TagLib_File_OggVorbis
    case "audio/x-flac+ogg": TagLib_File_OggFlac
    case "audio/mp4", "audio/x-m4a", "audio/m4a", "audio/aac": TagLib_File_MP4
    case "audio/x-ms-wma", "video/x-ms-asf": TagLib_File_ASF
    case "audio/x-wavpack": TagLib_File_WavPack
    case "audio/x-speex", "audio/x-speex+ogg": TagLib_File_Speex
    case "audio/x-musepack": TagLib_File_MPC
    case "audio/x-tta": TagLib_File_TrueAudio
    default: nil
    }
  }
}
