#include "CTagShim.h"
#include <taglib/fileref.h>
#include <taglib/tpropertymap.h>
#include <cstring>
#include <string>

extern "C" char *ctagshim_properties(const char *path) {
  TagLib::FileRef file(path, false);
  if (file.isNull() || !file.file()) return nullptr;
  std::string out;
  const TagLib::PropertyMap properties = file.file()->properties();
  for (auto const &entry : properties) {
    for (auto const &value : entry.second) {
      out += entry.first.to8Bit(true);
      out += '=';
      std::string text = value.to8Bit(true);
      for (char &c : text) if (c == '\n') c = ' ';
      out += text;
      out += '\n';
    }
  }
  return strdup(out.c_str());
}
