import Foundation
import LumenModel

/// Music: tags and stream properties through TagLib (MP3 with ID3v1/v2.2/v2.3/v2.4, FLAC, Ogg
/// Vorbis/Opus/FLAC, MP4/M4A and the rest of what TagLib opens). The C API gives the common tag
/// and the stream; the C++ shim adds what TagLib 1.13's C API lacks: the property map (composer,
/// full dates, "2/3" track numbers), the length in milliseconds and the codec.
public struct MusicExtractor: Extractor {
  public static let name = "music"
  /// 1: first version.
  public static let version = 1

  public init() {}

  public func extract(_ request: ExtractionRequest) throws(ExtractionError) -> ExtractionOutcome {
    let file = try TagLibFile(path: request.fileSystemPath, mimeType: request.mimeType)
    var attributes = AttributeSet()
    let properties = file.properties
    let tag = file.basicTag

    func text(_ value: String?, _ key: AttributeKey) {
      if let value, !value.isEmpty { attributes.set(.text(value), for: key) }
    }
    text(tag?.title, .title)
    text(tag?.artist, .artist)
    text(tag?.album, .album)
    text(tag?.genre, .musicalGenre)
    text(properties["COMPOSER"]?.joined(separator: ", "), .composer)

    let track = properties["TRACKNUMBER"]?.first.flatMap(TagValues.leadingInteger) ?? tag?.track
    if let track { attributes.set(.number(Double(track)), for: .audioTrackNumber) }

    let date =
      properties["DATE"]?.first.flatMap { TagValues.date($0) }
      ?? tag?.year.flatMap { TagValues.date(String($0)) }
    if let date { attributes.set(.date(date), for: .recordingDate) }

    // TagLib opens an empty or garbage file of a known extension with all-zero properties;
    // only a stream with a rate or a length is a stream.
    if let audio = file.audio, audio.sampleRate > 0 || audio.lengthMilliseconds > 0 {
      if audio.lengthMilliseconds > 0 {
        attributes.set(.number(Double(audio.lengthMilliseconds) / 1000), for: .duration)
      }
      if audio.sampleRate > 0 {
        attributes.set(.number(Double(audio.sampleRate)), for: .audioSampleRate)
      }
      if audio.channels > 0 {
        attributes.set(.number(Double(audio.channels)), for: .audioChannelCount)
      }
      // Spotlight's kMDItemAudioBitRate is in bit/s. A Vorbis encoder declares its nominal
      // rate, which stays right for a cut or tiny file; TagLib's own figure is a kbit/s average.
      if audio.nominalBitrate > 0 {
        attributes.set(.number(Double(audio.nominalBitrate)), for: .audioBitRate)
      } else if audio.bitrate > 0 {
        attributes.set(.number(Double(audio.bitrate) * 1000), for: .audioBitRate)
      }
      if let codec = audio.codec, codec.pointee != 0 {
        attributes.set([.text(String(cString: codec))], for: .codecs)
      }
      if audio.bitsPerSample > 0 {
        attributes.set(.number(Double(audio.bitsPerSample)), for: .bitsPerSample)
      }
    }
    guard !attributes.isEmpty else {
      throw ExtractionError(.malformed, "no audio stream and no tags")
    }
    return ExtractionOutcome(attributes: attributes)
  }
}
