#include "js_text/number.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "js_text/string.h"

namespace sbx::js {
namespace {

bool IsDigits(std::string_view s, int base) {
  if (s.empty()) return false;
  for (char c : s) {
    int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'z' ? c - 'a' + 10 : c >= 'A' && c <= 'Z' ? c - 'A' + 10 : 99;
    if (v >= base) return false;
  }
  return true;
}

double ParseRadix(std::string_view digits, int base) {
  double out = 0;
  for (char c : digits) {
    int v = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
    out = out * base + v;
  }
  return out;
}

// StrDecimalLiteral without its sign: digits, optional fraction, optional
// exponent; at least one digit before the exponent.
bool IsDecimalLiteral(std::string_view s) {
  std::size_t i = 0, mantissa_digits = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++mantissa_digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++mantissa_digits;
  }
  if (mantissa_digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    std::size_t exp_start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == exp_start) return false;
  }
  return i == s.size();
}

}  // namespace

std::string NumberToString(double value) {
  if (std::isnan(value)) return "NaN";
  if (value == 0) return "0";
  if (value < 0) return "-" + NumberToString(-value);
  if (std::isinf(value)) return "Infinity";
  // Shortest round-trip digits, as ECMAScript's Number::toString asks.
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  std::size_t e = sci.find('e');
  std::string digits;
  for (std::size_t i = 0; i < e; ++i)
    if (sci[i] != '.') digits += sci[i];
  int n = std::atoi(sci.c_str() + e + 1) + 1;  // value = 0.digits × 10^n
  int k = static_cast<int>(digits.size());
  if (k <= n && n <= 21) return digits + std::string(static_cast<std::size_t>(n - k), '0');
  if (0 < n && n <= 21)
    return digits.substr(0, static_cast<std::size_t>(n)) + "." + digits.substr(static_cast<std::size_t>(n));
  if (-6 < n && n <= 0) return "0." + std::string(static_cast<std::size_t>(-n), '0') + digits;
  std::string exp = (n - 1 >= 0 ? "+" : "-") + std::to_string(std::abs(n - 1));
  if (k == 1) return digits + "e" + exp;
  return digits.substr(0, 1) + "." + digits.substr(1) + "e" + exp;
}

std::string ToFixed(double value, int digits) {
  bool negative = value < 0;
  // glibc prints the exact decimal expansion of a double given enough digits.
  char buf[512];
  std::snprintf(buf, sizeof buf, "%.200f", std::fabs(value));
  std::string exact = buf;
  std::size_t dot = exact.find('.');
  std::string whole = exact.substr(0, dot);
  std::string frac = exact.substr(dot + 1);
  std::string kept = whole + frac.substr(0, static_cast<std::size_t>(digits));
  if (frac[static_cast<std::size_t>(digits)] >= '5') {
    int i = static_cast<int>(kept.size()) - 1;
    while (i >= 0 && kept[static_cast<std::size_t>(i)] == '9') kept[static_cast<std::size_t>(i--)] = '0';
    if (i < 0) {
      kept.insert(0, "1");
      whole.insert(0, "0");  // one more integer digit
    } else {
      ++kept[static_cast<std::size_t>(i)];
    }
  }
  std::size_t int_digits = whole.size();
  std::string out = kept.substr(0, int_digits);
  if (digits > 0) out += "." + kept.substr(int_digits);
  // ECMA-262 keeps the sign of any x < 0, even when the digits are all 0
  // ((-0.001).toFixed(2) is "-0.00"); -0 itself is not below 0.
  return (negative ? "-" : "") + out;
}

double StringToNumber(std::string_view raw) {
  std::string_view s = Trim(raw);
  if (s.empty()) return 0;
  if (s.size() > 2 && s[0] == '0') {
    char p = static_cast<char>(s[1] | 0x20);
    int base = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 0;
    if (base) return IsDigits(s.substr(2), base) ? ParseRadix(s.substr(2), base) : std::nan("");
  }
  double sign = 1;
  std::string_view body = s;
  if (body[0] == '+' || body[0] == '-') {
    sign = body[0] == '-' ? -1 : 1;
    body.remove_prefix(1);
  }
  if (body == "Infinity") return sign * std::numeric_limits<double>::infinity();
  if (!IsDecimalLiteral(body)) return std::nan("");
  return sign * std::strtod(std::string(body).c_str(), nullptr);
}

double MathRound(double value) {
  if (!std::isfinite(value)) return value;
  double r = std::floor(value);
  if (value - r >= 0.5) r += 1;
  return r;
}

}  // namespace sbx::js
