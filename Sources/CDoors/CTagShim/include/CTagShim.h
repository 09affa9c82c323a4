#pragma once
#ifdef __cplusplus
extern "C" {
#endif

/// What TagLib 1.13's C API leaves out of a file's audio properties: the length in milliseconds
/// (the C API rounds to whole seconds, so a 0.4 s clip reads as 0), bits per sample, and which
/// codec the stream uses (the C API does not say which file type it opened).
typedef struct CTagShimAudio {
  int lengthMilliseconds;
  /// kbit/s, as TagLib reports it (an average over the stream for most formats).
  int bitrate;
  /// bit/s the encoder declared (Vorbis identification header), or 0 when the format has none.
  int nominalBitrate;
  int sampleRate;
  int channels;
  /// 0 for lossy formats, which have none.
  int bitsPerSample;
  /// A static string in ffprobe's codec naming ("mp3", "flac", "vorbis", "opus", "aac", "alac"),
  /// or "" when TagLib opened a format the shim does not name. Never freed.
  const char *codec;
} CTagShimAudio;

/// `file` is the `TagLib_File *` that tag_c.h's taglib_file_new(_type) returned; TagLib 1.x's
/// C binding defines it as a `TagLib::File *`, so the shim reads the same parsed file instead of
/// opening and parsing it a second time. Returns 0 when the file has no audio properties.
int ctagshim_audio(const void *file, CTagShimAudio *out);

/// Every property of the file's tags (TagLib's PropertyMap: COMPOSER, DATE, TRACKNUMBER…), as
/// "KEY=value\n" lines with newlines inside values turned into spaces. malloc'd: free() it.
/// NULL when the file has no tag.
char *ctagshim_properties(const void *file);

#ifdef __cplusplus
}
#endif
