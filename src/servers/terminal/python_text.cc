#include "servers/terminal/python_text.h"

#include <cstring>

namespace sbx::servers::terminal::py {
namespace {

// One code point of valid UTF-8 at `i`; advances `i`. Input that is not
// valid UTF-8 (never the case for strings that came through JSON) is taken
// a byte at a time.
char32_t Next(std::string_view s, std::size_t& i) {
  auto b = static_cast<unsigned char>(s[i]);
  std::size_t extra = b >= 0xF0 ? 3 : b >= 0xE0 ? 2 : b >= 0xC0 ? 1 : 0;
  if (i + extra >= s.size()) extra = 0;  // cut off: the lead byte alone
  char32_t c = extra == 0 ? b : b & (0x3F >> extra);
  for (std::size_t k = 1; k <= extra; ++k) c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  i += 1 + extra;
  return c;
}

// Py_UNICODE_ISSPACE: the characters str.split() and str.strip() take as
// white space (bidirectional classes WS, B, S and category Zs).
bool IsSpace(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

}  // namespace

std::string Repr(std::string_view utf8) {
  // Read a byte at a time where the UTF-8 is invalid (see Next), as before
  // the shared repr: filenames here came through JSON or the command line.
  std::u32string code_points;
  for (std::size_t i = 0; i < utf8.size();) code_points += Next(utf8, i);
  return ::sbx::servers::py::ReprCodePoints(code_points);
}

std::size_t Length(std::string_view utf8) {
  std::size_t n = 0;
  for (unsigned char b : utf8)
    if ((b & 0xC0) != 0x80) ++n;
  return n;
}

std::string_view Strip(std::string_view utf8) {
  std::size_t begin = 0;
  while (begin < utf8.size()) {
    std::size_t next = begin;
    if (!IsSpace(Next(utf8, next))) break;
    begin = next;
  }
  std::size_t end = begin;
  for (std::size_t i = begin; i < utf8.size();)
    if (!IsSpace(Next(utf8, i))) end = i;
  return utf8.substr(begin, end - begin);
}

std::string TranslateNewlines(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\r') {
      out += text[i];
      continue;
    }
    out += '\n';
    if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
  }
  return out;
}

std::string OsErrorText(int err, std::optional<std::string_view> filename) {
  std::string out = "[Errno " + std::to_string(err) + "] " + std::strerror(err);
  if (filename) out += ": " + Repr(*filename);
  return out;
}

}  // namespace sbx::servers::terminal::py
