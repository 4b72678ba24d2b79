#include "servers/git/python_text.h"

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cctype>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <vector>

#include "servers/python_text/python_text.h"

namespace sbx::servers::git::py {
namespace {

using ::sbx::servers::py::AppendUtf8;

// U+FFFD, what "replace" puts for a byte the codec cannot decode.
constexpr char32_t kReplacement = 0xFFFD;

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
