#include "servers/python_text/python_text.h"

#include <unicode/uchar.h>

#include <cstdio>

namespace sbx::servers::py {
namespace {

bool IsContinuation(unsigned char c) { return c >= 0x80 && c < 0xC0; }

// One step of CPython's UTF-8 decoder (Objects/stringlib/codecs.h) at a
// non-ASCII byte: the length of a valid sequence, or the error CPython
// reports there (its codes: 0 = truncated at the end, 1 = invalid start
// byte, 2..4 = the 2nd..4th byte is not a valid continuation).
struct Step {
  int valid_length = 0;
  int error = -1;
};

Step DecodeStep(std::string_view b, std::size_t i) {
  const auto at = [&](std::size_t k) { return static_cast<unsigned char>(b[i + k]); };
  const std::size_t left = b.size() - i;
  unsigned char c = at(0);
  if (c < 0xE0) {
    if (c < 0xC2) return {0, 1};
    if (left < 2) return {0, 0};
    if (!IsContinuation(at(1))) return {0, 2};
    return {2, -1};
  }
  if (c < 0xF0) {
    if (left < 3) {
      if (left < 2) return {0, 0};
      unsigned char c2 = at(1);
      if (!IsContinuation(c2) || (c2 < 0xA0 ? c == 0xE0 : c == 0xED)) return {0, 2};
      return {0, 0};
    }
    unsigned char c2 = at(1);
    if (!IsContinuation(c2)) return {0, 2};
    if (c == 0xE0 && c2 < 0xA0) return {0, 2};
    if (c == 0xED && c2 >= 0xA0) return {0, 2};
    if (!IsContinuation(at(2))) return {0, 3};
    return {3, -1};
  }
  if (c < 0xF5) {
    if (left < 4) {
      if (left < 2) return {0, 0};
      unsigned char c2 = at(1);
      if (!IsContinuation(c2) || (c2 < 0x90 ? c == 0xF0 : c == 0xF4)) return {0, 2};
      if (left < 3) return {0, 0};
      if (!IsContinuation(at(2))) return {0, 3};
      return {0, 0};
    }
    unsigned char c2 = at(1);
    if (!IsContinuation(c2)) return {0, 2};
    if (c == 0xF0 && c2 < 0x90) return {0, 2};
    if (c == 0xF4 && c2 >= 0x90) return {0, 2};
    if (!IsContinuation(at(2))) return {0, 3};
    if (!IsContinuation(at(3))) return {0, 4};
    return {4, -1};
  }
  return {0, 1};
}

// Where an error that starts at `i` ends (exclusive), as CPython computes it.
std::size_t ErrorEnd(std::string_view b, std::size_t i, int error) {
  if (error == 0) return b.size();
  if (error == 1) return i + 1;
  return i + static_cast<std::size_t>(error) - 1;
}

const char* ErrorReason(int error) {
  if (error == 0) return "unexpected end of data";
  if (error == 1) return "invalid start byte";
  return "invalid continuation byte";
}

constexpr char32_t kReplacement = 0xFFFD;

std::u32string CodePoints(std::string_view utf8) {
  std::string clean = DecodeUtf8Replace(utf8);
  std::u32string out;
  for (std::size_t i = 0; i < clean.size();) {
    unsigned char c = static_cast<unsigned char>(clean[i]);
    int len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    char32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
    for (int k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(clean[i + k]) & 0x3F);
    out.push_back(cp);
    i += static_cast<std::size_t>(len);
  }
  return out;
}

std::string Hex(const char* format, unsigned value) {
  char buf[16];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}

}  // namespace

void AppendUtf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

bool IsPrintable(char32_t cp) {
  if (cp == U' ') return true;
  switch (u_charType(static_cast<UChar32>(cp))) {
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

std::string DecodeUtf8Replace(std::string_view b) {
  std::string out;
  out.reserve(b.size());
  for (std::size_t i = 0; i < b.size();) {
    unsigned char c = static_cast<unsigned char>(b[i]);
    if (c < 0x80) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    Step s = DecodeStep(b, i);
    if (s.error < 0) {
      out.append(b.substr(i, static_cast<std::size_t>(s.valid_length)));
      i += static_cast<std::size_t>(s.valid_length);
      continue;
    }
    AppendUtf8(out, kReplacement);
    i = ErrorEnd(b, i, s.error);
  }
  return out;
}

std::optional<std::string> Utf8DecodeError(std::string_view b) {
  for (std::size_t i = 0; i < b.size();) {
    if (static_cast<unsigned char>(b[i]) < 0x80) {
      ++i;
      continue;
    }
    Step s = DecodeStep(b, i);
    if (s.error < 0) {
      i += static_cast<std::size_t>(s.valid_length);
      continue;
    }
    std::size_t end = ErrorEnd(b, i, s.error);
    if (end - i == 1)
      return "'utf-8' codec can't decode byte " + Hex("0x%02x", static_cast<unsigned char>(b[i])) +
             " in position " + std::to_string(i) + ": " + ErrorReason(s.error);
    return "'utf-8' codec can't decode bytes in position " + std::to_string(i) + "-" + std::to_string(end - 1) +
           ": " + ErrorReason(s.error);
  }
  return std::nullopt;
}

std::string ReprCodePoints(std::u32string_view cps) {
  bool has_single = false, has_double = false;
  for (char32_t c : cps) {
    has_single = has_single || c == U'\'';
    has_double = has_double || c == U'"';
  }
  const char32_t quote = (has_single && !has_double) ? U'"' : U'\'';
  std::string out(1, static_cast<char>(quote));
  for (char32_t c : cps) {
    if (c == quote || c == U'\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == U'\t') {
      out += "\\t";
    } else if (c == U'\n') {
      out += "\\n";
    } else if (c == U'\r') {
      out += "\\r";
    } else if (c < U' ' || c == 0x7F) {
      out += Hex("\\x%02x", static_cast<unsigned>(c));
    } else if (c < 0x7F) {
      out += static_cast<char>(c);
    } else if (IsPrintable(c)) {
      AppendUtf8(out, c);
    } else if (c <= 0xFF) {
      out += Hex("\\x%02x", static_cast<unsigned>(c));
    } else if (c <= 0xFFFF) {
      out += Hex("\\u%04x", static_cast<unsigned>(c));
    } else {
      out += Hex("\\U%08x", static_cast<unsigned>(c));
    }
  }
  out += static_cast<char>(quote);
  return out;
}

std::string Repr(std::string_view text) { return ReprCodePoints(CodePoints(text)); }

}  // namespace sbx::servers::py
