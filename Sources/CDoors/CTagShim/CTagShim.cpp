#include "CTagShim.h"

#include <taglib/taglib.h>
#include <taglib/tfile.h>
#include <taglib/tpropertymap.h>
#include <taglib/aifffile.h>
#include <taglib/apefile.h>
#include <taglib/asffile.h>
#include <taglib/flacfile.h>
#include <taglib/mp4file.h>
#include <taglib/mpcfile.h>
#include <taglib/mpegfile.h>
#include <taglib/oggflacfile.h>
#include <taglib/opusfile.h>
#include <taglib/speexfile.h>
#include <taglib/trueaudiofile.h>
#include <taglib/vorbisfile.h>
#include <taglib/wavfile.h>
#include <taglib/wavpackfile.h>

#include <cstdlib>
#include <cstring>
#include <string>

// TagLib 2 changed what the C binding's TagLib_File points to; refuse to build rather than
// misread memory after an upgrade.
#if TAGLIB_MAJOR_VERSION != 1
#error "CTagShim assumes TagLib 1.x, whose C binding's TagLib_File is a TagLib::File *"
#endif

using namespace TagLib;

static const char *codecName(const File *file) {
  if (auto mpeg = dynamic_cast<const MPEG::File *>(file)) {
    auto properties = mpeg->audioProperties();
    if (!properties) return "mp3";
    switch (properties->layer()) {
    case 1: return "mp1";
    case 2: return "mp2";
    default: return "mp3";
    }
  }
  if (dynamic_cast<const FLAC::File *>(file) || dynamic_cast<const Ogg::FLAC::File *>(file))
    return "flac";
  if (dynamic_cast<const Ogg::Vorbis::File *>(file)) return "vorbis";
  if (dynamic_cast<const Ogg::Opus::File *>(file)) return "opus";
  if (dynamic_cast<const Ogg::Speex::File *>(file)) return "speex";
  if (auto mp4 = dynamic_cast<const MP4::File *>(file)) {
    auto properties = mp4->audioProperties();
    if (!properties) return "";
    switch (properties->codec()) {
    case MP4::Properties::AAC: return "aac";
    case MP4::Properties::ALAC: return "alac";
    default: return "";
    }
  }
  if (dynamic_cast<const ASF::File *>(file)) return "wma";
  if (dynamic_cast<const APE::File *>(file)) return "ape";
  if (dynamic_cast<const WavPack::File *>(file)) return "wavpack";
  if (dynamic_cast<const MPC::File *>(file)) return "musepack";
  if (dynamic_cast<const TrueAudio::File *>(file)) return "tta";
  if (dynamic_cast<const RIFF::WAV::File *>(file) || dynamic_cast<const RIFF::AIFF::File *>(file))
    return "pcm";
  return "";
}

static int bitsPerSample(const File *file) {
  if (auto flac = dynamic_cast<const FLAC::File *>(file)) {
    auto p = flac->audioProperties();
    return p ? p->bitsPerSample() : 0;
  }
  if (auto oggFlac = dynamic_cast<const Ogg::FLAC::File *>(file)) {
    auto p = oggFlac->audioProperties();
    return p ? p->bitsPerSample() : 0;
  }
  if (auto mp4 = dynamic_cast<const MP4::File *>(file)) {
    auto p = mp4->audioProperties();
    return p ? p->bitsPerSample() : 0;
  }
  return 0;
}

extern "C" int ctagshim_audio(const void *opaque, CTagShimAudio *out) {
  if (!opaque || !out) return 0;
  const File *file = static_cast<const File *>(opaque);
  const AudioProperties *properties = file->audioProperties();
  if (!properties) return 0;
  out->lengthMilliseconds = properties->lengthInMilliseconds();
  out->bitrate = properties->bitrate();
  out->nominalBitrate = 0;
  if (auto vorbis = dynamic_cast<const Ogg::Vorbis::File *>(file)) {
    if (auto p = vorbis->audioProperties()) out->nominalBitrate = p->bitrateNominal();
  }
  // TagLib 1.13 computes Ogg FLAC's bitrate from a fraction of the stream (2 kbit/s for a file
  // averaging 20); the file's average is the better figure there.
  if (dynamic_cast<const Ogg::FLAC::File *>(file) && out->lengthMilliseconds > 0) {
    out->bitrate = static_cast<int>(
      (static_cast<long long>(const_cast<File *>(file)->length()) * 8 + out->lengthMilliseconds / 2)
      / out->lengthMilliseconds);
  }
  out->sampleRate = properties->sampleRate();
  out->channels = properties->channels();
  out->bitsPerSample = bitsPerSample(file);
  out->codec = codecName(file);
  return 1;
}

extern "C" char *ctagshim_properties(const void *opaque) {
  if (!opaque) return nullptr;
  const File *file = static_cast<const File *>(opaque);
  if (!file->tag()) return nullptr;
  std::string out;
  const PropertyMap properties = file->properties();
  for (auto const &entry : properties) {
    for (auto const &value : entry.second) {
      out += entry.first.to8Bit(true);
      out += '=';
      std::string text = value.to8Bit(true);
      for (char &c : text)
        if (c == '\n' || c == '\r') c = ' ';
      out += text;
      out += '\n';
    }
  }
  return strdup(out.c_str());
}
