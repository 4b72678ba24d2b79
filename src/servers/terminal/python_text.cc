#include "servers/terminal/python_text.h"

#include <cstring>

#include "core/utf8.h"
#include "python_text/repr.h"

namespace sbx::servers::terminal::py {
namespace {

// The code point at `i`, advancing `i`. Input that is not valid UTF-8
// (never the case for strings that came through JSON) is taken a byte at a
// time, each byte as the code point of its value.
char32_t Next(std::string_view s, std::size_t& i) {
  utf8::Decoded d = utf8::Decode(s, i);
  if (d.length == 0) return static_cast<unsigned char>(s[i++]);
  i += d.length;
  return d.code_point;
}

}  // namespace

std::string Repr(std::string_view utf8) {
  // Read a byte at a time where the UTF-8 is invalid (see Next), as before
  // the shared repr: filenames here came through JSON or the command line.
  std::u32string code_points;
  for (std::size_t i = 0; i < utf8.size();) code_points += Next(utf8, i);
  return ::sbx::py::ReprCodePoints(code_points);
}

std::size_t Length(std::string_view utf8) { return utf8::CountCodePoints(utf8); }

std::string_view Strip(std::string_view utf8) {
  std::size_t begin = 0;
  while (begin < utf8.size()) {
    std::size_t next = begin;
    if (!::sbx::py::IsSpace(Next(utf8, next))) break;
    begin = next;
  }
  std::size_t end = begin;
  for (std::size_t i = begin; i < utf8.size();)
    if (!::sbx::py::IsSpace(Next(utf8, i))) end = i;
  return utf8.substr(begin, end - begin);
}

std::string OsErrorText(int err, std::optional<std::string_view> filename) {
  std::string out = "[Errno " + std::to_string(err) + "] " + std::strerror(err);
  if (filename) out += ": " + Repr(*filename);
  return out;
}

}  // namespace sbx::servers::terminal::py
