#include "python_text/repr.h"

#include <unicode/uchar.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/utf8.h"

namespace sbx::py {
namespace {

std::string Hex(const char* format, unsigned value) {
  char buf[16];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}

}  // namespace

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

bool IsSpace(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
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
      utf8::Append(out, c);
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

std::string Repr(std::string_view text) {
  std::u32string cps;
  cps.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    utf8::Decoded d = utf8::Decode(text, i, utf8::Surrogates::kAllow);
    if (d.length) {
      cps += d.code_point;
      i += d.length;
    } else {
      cps += utf8::kReplacement;
      i += utf8::MaximalSubpart(text, i);
    }
  }
  return ReprCodePoints(cps);
}

std::string FloatRepr(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  // Shortest round-trip digits (to_chars' shortest form is CPython's repr
  // mode 0): d.ddde±X.
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string_view s(buf, static_cast<std::size_t>(res.ptr - buf));
  bool negative = s[0] == '-';
  if (negative) s.remove_prefix(1);
  std::size_t e = s.find('e');
  std::string digits;
  for (char c : s.substr(0, e))
    if (c != '.') digits += c;
  int exponent = std::atoi(std::string(s.substr(e + 1)).c_str());
  std::string out;
  // CPython prints the plain form for exponents -4 <= e < 16.
  if (exponent >= -4 && exponent < 16) {
    const auto point = static_cast<std::size_t>(exponent + 1);
    if (exponent >= 0 && digits.size() <= point)
      out = digits + std::string(point - digits.size(), '0') + ".0";
    else if (exponent >= 0)
      out = digits.substr(0, point) + "." + digits.substr(point);
    else
      out = "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
  } else {
    out = digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char exp[16];
    std::snprintf(exp, sizeof exp, "e%c%02d", exponent < 0 ? '-' : '+', exponent < 0 ? -exponent : exponent);
    out += exp;
  }
  return negative ? "-" + out : out;
}

std::string IntRepr(bool negative, std::uint64_t magnitude) {
  std::string digits = std::to_string(magnitude);
  return negative && magnitude != 0 ? "-" + digits : digits;
}

}  // namespace sbx::py
