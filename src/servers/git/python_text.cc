#include "servers/git/python_text.h"

#include <unicode/uchar.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cctype>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <vector>

namespace sbx::servers::git::py {
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

constexpr char32_t kReplacement = 0xFFFD;

std::vector<char32_t> CodePoints(std::string_view utf8) {
  std::string clean = DecodeUtf8Replace(utf8);
  std::vector<char32_t> out;
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

// CPython's Py_UNICODE_ISPRINTABLE: everything but the "Other" and
// "Separator" categories, except the ASCII space.
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

std::string Hex(const char* format, unsigned value) {
  char buf[16];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}

// Howard Hinnant's civil_from_days.
void CivilFromDays(std::int64_t z, std::int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = static_cast<std::int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  if (m <= 2) ++y;
}

struct Fields {
  std::int64_t year;
  unsigned month, day, hour, minute, second;
  int offset;  // seconds east of UTC actually used
};

Fields Break(const DateTime& dt) {
  // from_timestamp: astimezone() refuses offsets of a day or more.
  int offset = (dt.offset_east > -86400 && dt.offset_east < 86400) ? dt.offset_east : 0;
  std::int64_t local = dt.timestamp + offset;
  std::int64_t days = local >= 0 ? local / 86400 : -((-local + 86399) / 86400);
  std::int64_t secs = local - days * 86400;
  Fields f{};
  CivilFromDays(days, f.year, f.month, f.day);
  if (f.year < 1 || f.year > 9999) throw std::out_of_range("year " + std::to_string(f.year) + " is out of range");
  f.hour = static_cast<unsigned>(secs / 3600);
  f.minute = static_cast<unsigned>(secs % 3600 / 60);
  f.second = static_cast<unsigned>(secs % 60);
  f.offset = offset;
  return f;
}

}  // namespace

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

std::string DecodeReplace(std::string_view bytes, std::string_view encoding) {
  std::string enc;
  for (char c : encoding) enc += (c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (enc == "latin-1" || enc == "latin1" || enc == "iso-8859-1" || enc == "iso8859-1" || enc == "l1") {
    std::string out;
    for (unsigned char c : bytes) AppendUtf8(out, c);
    return out;
  }
  if (enc == "ascii" || enc == "us-ascii") {
    std::string out;
    for (unsigned char c : bytes) AppendUtf8(out, c < 0x80 ? c : kReplacement);
    return out;
  }
  return DecodeUtf8Replace(bytes);
}

std::string Repr(std::string_view text) {
  std::vector<char32_t> cps = CodePoints(text);
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

std::string PurePathStr(std::string_view path) {
  std::string root;
  if (!path.empty() && path[0] == '/')
    root = (path.size() >= 2 && path[1] == '/' && (path.size() == 2 || path[2] != '/')) ? "//" : "/";
  std::string out = root;
  bool first = true;
  std::size_t i = 0;
  while (i <= path.size()) {
    std::size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    std::string_view part = path.substr(i, j - i);
    if (!part.empty() && part != ".") {
      if (!first) out += '/';
      out.append(part);
      first = false;
    }
    i = j + 1;
  }
  return out.empty() ? "." : out;
}

std::string NormPath(std::string_view path) {
  if (path.empty()) return ".";
  int initial = 0;
  if (path[0] == '/') initial = (path.size() >= 2 && path[1] == '/' && (path.size() == 2 || path[2] != '/')) ? 2 : 1;
  std::vector<std::string_view> comps;
  std::size_t i = 0;
  while (i <= path.size()) {
    std::size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    std::string_view c = path.substr(i, j - i);
    i = j + 1;
    if (c.empty() || c == ".") continue;
    if (c != ".." || (initial == 0 && comps.empty()) || (!comps.empty() && comps.back() == ".."))
      comps.push_back(c);
    else if (!comps.empty())
      comps.pop_back();
  }
  std::string out(static_cast<std::size_t>(initial), '/');
  for (std::size_t k = 0; k < comps.size(); ++k) {
    if (k) out += '/';
    out.append(comps[k]);
  }
  return out.empty() ? "." : out;
}

std::string DateTimeStr(const DateTime& dt) {
  Fields f = Break(dt);
  char buf[64];
  int off = f.offset < 0 ? -f.offset : f.offset;
  std::snprintf(buf, sizeof buf, "%04lld-%02u-%02u %02u:%02u:%02u%c%02d:%02d", static_cast<long long>(f.year),
                f.month, f.day, f.hour, f.minute, f.second, f.offset < 0 ? '-' : '+', off / 3600, off % 3600 / 60);
  std::string out = buf;
  if (off % 60) out += Hex(":%02u", static_cast<unsigned>(off % 60));
  return out;
}

std::string DateTimeRepr(const DateTime& dt) {
  Fields f = Break(dt);
  std::string out = "datetime.datetime(" + std::to_string(f.year) + ", " + std::to_string(f.month) + ", " +
                    std::to_string(f.day) + ", " + std::to_string(f.hour) + ", " + std::to_string(f.minute);
  if (f.second) out += ", " + std::to_string(f.second);
  return out + ", tzinfo=<git.objects.util.tzoffset object at " + NextObjectAddress() + ">)";
}

std::string FloatRepr(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[64];
  int precision = 1;
  for (; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*e", precision - 1, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  // buf: d.ddde±XX with the shortest digits; CPython prints the plain form
  // for exponents -4 <= e < 16.
  std::string s = buf;
  std::size_t e = s.find('e');
  std::string mantissa = s.substr(0, e);
  int exponent = std::atoi(s.c_str() + e + 1);
  bool negative = mantissa[0] == '-';
  if (negative) mantissa = mantissa.substr(1);
  std::string digits;
  for (char c : mantissa)
    if (c != '.') digits += c;
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  std::string out;
  if (exponent >= -4 && exponent < 16) {
    if (exponent >= 0) {
      if (digits.size() <= static_cast<std::size_t>(exponent) + 1) {
        out = digits + std::string(static_cast<std::size_t>(exponent) + 1 - digits.size(), '0') + ".0";
      } else {
        out = digits.substr(0, static_cast<std::size_t>(exponent) + 1) + "." +
              digits.substr(static_cast<std::size_t>(exponent) + 1);
      }
    } else {
      out = "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
    }
  } else {
    out = digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char exp[16];
    std::snprintf(exp, sizeof exp, "e%c%02d", exponent < 0 ? '-' : '+', exponent < 0 ? -exponent : exponent);
    out += exp;
  }
  return negative ? "-" + out : out;
}

std::string NextObjectAddress() {
  // CPython objects of this size sit 16-byte aligned in a 0x7f… arena.
  static const std::uint64_t base = [] {
    std::random_device rd;
    return 0x7f0000000000ULL | ((static_cast<std::uint64_t>(rd()) << 8) & 0xffffffff00ULL);
  }();
  static std::atomic<std::uint64_t> counter{0};
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(base + 0x40 * counter.fetch_add(1)));
  return buf;
}

}  // namespace sbx::servers::git::py
