#include "servers/terminal/python_text.h"

#include <unicode/uchar.h>

#include <cstdio>
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

// str.isprintable() for one character: everything but the categories
// Cc, Cf, Cs, Co, Cn, Zl, Zp and Zs (the space itself excepted).
bool IsPrintable(char32_t c) {
  if (c == ' ') return true;
  switch (u_charType(static_cast<UChar32>(c))) {
    case U_CONTROL_CHAR:
    case U_FORMAT_CHAR:
    case U_SURROGATE:
    case U_PRIVATE_USE_CHAR:
    case U_UNASSIGNED:
    case U_LINE_SEPARATOR:
    case U_PARAGRAPH_SEPARATOR:
    case U_SPACE_SEPARATOR:
      return false;
    default:
      return true;
  }
}

void AppendUtf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

std::string Hex(const char* format, unsigned value) {
  char buf[16];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}

bool IsContinuation(unsigned char b) { return b >= 0x80 && b <= 0xBF; }

}  // namespace

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

std::string Repr(std::string_view utf8) {
  bool has_single = utf8.find('\'') != std::string_view::npos;
  bool has_double = utf8.find('"') != std::string_view::npos;
  char quote = has_single && !has_double ? '"' : '\'';
  std::string out(1, quote);
  for (std::size_t i = 0; i < utf8.size();) {
    char32_t c = Next(utf8, i);
    if (c == static_cast<char32_t>(quote) || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < ' ' || c == 0x7F) {
      out += Hex("\\x%02x", c);
    } else if (c < 0x7F || IsPrintable(c)) {
      AppendUtf8(out, c);
    } else if (c <= 0xFF) {
      out += Hex("\\x%02x", c);
    } else if (c <= 0xFFFF) {
      out += Hex("\\u%04x", c);
    } else {
      out += Hex("\\U%08x", c);
    }
  }
  out += quote;
  return out;
}

std::optional<std::string> Utf8DecodeError(std::string_view bytes) {
  // CPython's decoder (Objects/stringlib/codecs.h): a bad lead byte is one
  // byte; a bad continuation ends the range just before it; a sequence cut
  // off by the end of the data (with the bytes present still valid) spans to
  // the end.
  const auto* s = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t n = bytes.size();
  std::size_t i = 0;
  while (i < n) {
    unsigned char c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t length = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    const char* reason = nullptr;
    std::size_t end = i + 1;
    if (length == 0) {
      reason = "invalid start byte";
    } else {
      // The valid range of the second byte depends on the lead byte
      // (no overlongs, no surrogates, nothing above U+10FFFF).
      unsigned char lo = 0x80, hi = 0xBF;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
      for (std::size_t k = 1; k < length; ++k) {
        if (i + k >= n) {
          reason = "unexpected end of data";
          end = n;
          break;
        }
        unsigned char b = s[i + k];
        bool ok = k == 1 ? b >= lo && b <= hi : IsContinuation(b);
        if (!ok) {
          reason = "invalid continuation byte";
          end = i + k;
          break;
        }
      }
    }
    if (!reason) {
      i += length;
      continue;
    }
    if (end == i + 1)
      return "'utf-8' codec can't decode byte " + Hex("0x%02x", c) + " in position " + std::to_string(i) + ": " +
             reason;
    return "'utf-8' codec can't decode bytes in position " + std::to_string(i) + "-" + std::to_string(end - 1) +
           ": " + reason;
  }
  return std::nullopt;
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
