// Test helpers: a hand-made zip writer (for archives no honest library
// writes: lying sizes, NUL or duplicate names, the encryption flag), a
// libzip-free way to state expectations on faults, and running Debian's
// python3 on a written package as an independent reader.
#pragma once

#include <unistd.h>
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "ooxml/error.h"

namespace sbx::ooxml::test {

struct RawEntry {
  std::string name;
  std::string data;               // uncompressed
  bool deflate = true;
  std::int64_t claimed_size = -1;  // uncompressed size in the headers; -1: the true one
  std::uint16_t flags = 0;        // general purpose bits (1 = encrypted)
};

inline std::string RawDeflate(const std::string& in) {
  z_stream z{};
  deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, in.size()) + 16, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

inline void Put(std::string& s, std::uint32_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) s += static_cast<char>((v >> (8 * i)) & 0xFF);
}

// A zip with exactly these entries and headers.
inline std::string RawZip(const std::vector<RawEntry>& entries) {
  std::string out, cd;
  for (const auto& e : entries) {
    std::string body = e.deflate ? RawDeflate(e.data) : e.data;
    auto crc = static_cast<std::uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(e.data.data()), static_cast<uInt>(e.data.size())));
    auto usize = static_cast<std::uint32_t>(e.claimed_size >= 0 ? e.claimed_size : static_cast<std::int64_t>(e.data.size()));
    auto offset = static_cast<std::uint32_t>(out.size());
    auto header = [&](std::string& s, bool central) {
      Put(s, central ? 0x02014b50 : 0x04034b50, 4);
      if (central) Put(s, 20, 2);  // made by
      Put(s, 20, 2);               // needed
      Put(s, e.flags, 2);
      Put(s, e.deflate ? 8 : 0, 2);
      Put(s, 0, 2);       // time
      Put(s, 0x21, 2);    // date 1980-01-01
      Put(s, crc, 4);
      Put(s, static_cast<std::uint32_t>(body.size()), 4);
      Put(s, usize, 4);
      Put(s, static_cast<std::uint32_t>(e.name.size()), 2);
      Put(s, 0, 2);  // extra
      if (central) {
        Put(s, 0, 2);  // comment
        Put(s, 0, 2);  // disk
        Put(s, 0, 2);  // internal attrs
        Put(s, 0, 4);  // external attrs
        Put(s, offset, 4);
      }
      s += e.name;
    };
    header(out, false);
    out += body;
    header(cd, true);
  }
  auto cd_offset = static_cast<std::uint32_t>(out.size());
  out += cd;
  Put(out, 0x06054b50, 4);
  Put(out, 0, 2);
  Put(out, 0, 2);
  Put(out, static_cast<std::uint32_t>(entries.size()), 2);
  Put(out, static_cast<std::uint32_t>(entries.size()), 2);
  Put(out, static_cast<std::uint32_t>(cd.size()), 4);
  Put(out, cd_offset, 4);
  Put(out, 0, 2);
  return out;
}

inline constexpr const char* kMinimalContentTypes =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
    "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
    "<Default Extension=\"xml\" ContentType=\"application/xml\"/></Types>";

inline bool HavePython() { return ::access("/usr/bin/python3", X_OK) == 0; }

// Writes `bytes` to a temporary file, runs `/usr/bin/python3 -c script
// <file>` and returns what it printed (stderr folded in) and its exit status.
struct RunOutput {
  int status = -1;
  std::string output;
};
inline RunOutput RunPython(const std::string& script, const std::string& bytes, const std::string& suffix = ".xlsx") {
  char dir[] = "/tmp/sbx-ooxml-XXXXXX";
  if (::mkdtemp(dir) == nullptr) return {};
  std::string file = std::string(dir) + "/file" + suffix;
  std::string py = std::string(dir) + "/check.py";
  std::ofstream(file, std::ios::binary) << bytes;
  std::ofstream(py) << script;
  std::string cmd = "/usr/bin/python3 " + py + " " + file + " 2>&1";
  RunOutput r;
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
    r.status = ::pclose(p);
  }
  std::remove(file.c_str());
  std::remove(py.c_str());
  ::rmdir(dir);
  return r;
}

inline bool HavePythonModule(const std::string& module) {
  std::string cmd = "/usr/bin/python3 -c 'import " + module + "' >/dev/null 2>&1";
  return HavePython() && std::system(cmd.c_str()) == 0;
}

}  // namespace sbx::ooxml::test
