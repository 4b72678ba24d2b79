#include "servers/desktop_commander/js_format.h"

#include <unicode/locid.h>
#include <unicode/unistr.h>

#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <limits>

#include "core/json_text.h"
#include "servers/filesystem/js_text.h"

namespace sbx::servers::desktop_commander {
namespace {

using filesystem::JsTrim;

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

double StringToNumber(std::string_view raw) {
  std::string_view s = JsTrim(raw);
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

void Stringify(const Json& v, int indent, int depth, std::string& out) {
  auto newline = [&](int level) {
    out += '\n';
    out.append(static_cast<std::size_t>(indent * level), ' ');
  };
  switch (v.type()) {
    case Json::value_t::object: {
      if (v.empty()) {
        out += "{}";
        return;
      }
      out += '{';
      bool first = true;
      for (const auto& [key, value] : v.items()) {
        if (!first) out += ',';
        first = false;
        if (indent) newline(depth + 1);
        AppendJsonString(out, key);
        out += indent ? ": " : ":";
        Stringify(value, indent, depth + 1, out);
      }
      if (indent) newline(depth);
      out += '}';
      return;
    }
    case Json::value_t::array: {
      if (v.empty()) {
        out += "[]";
        return;
      }
      out += '[';
      bool first = true;
      for (const auto& value : v) {
        if (!first) out += ',';
        first = false;
        if (indent) newline(depth + 1);
        Stringify(value, indent, depth + 1, out);
      }
      if (indent) newline(depth);
      out += ']';
      return;
    }
    case Json::value_t::string:
      AppendJsonString(out, v.get_ref<const std::string&>());
      return;
    case Json::value_t::boolean:
      out += v.get<bool>() ? "true" : "false";
      return;
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float: {
      double d = v.get<double>();
      out += std::isfinite(d) ? JsNumber(d) : "null";
      return;
    }
    default:
      out += "null";
  }
}

}  // namespace

std::string JsNumber(double value) {
  if (std::isnan(value)) return "NaN";
  if (value == 0) return "0";
  if (value < 0) return "-" + JsNumber(-value);
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
  if (0 < n && n <= 21) return digits.substr(0, static_cast<std::size_t>(n)) + "." + digits.substr(static_cast<std::size_t>(n));
  if (-6 < n && n <= 0) return "0." + std::string(static_cast<std::size_t>(-n), '0') + digits;
  std::string exp = (n - 1 >= 0 ? "+" : "-") + std::to_string(std::abs(n - 1));
  if (k == 1) return digits + "e" + exp;
  return digits.substr(0, 1) + "." + digits.substr(1) + "e" + exp;
}

std::string JsString(const Json& value) {
  switch (value.type()) {
    case Json::value_t::string:
      return value.get<std::string>();
    case Json::value_t::boolean:
      return value.get<bool>() ? "true" : "false";
    case Json::value_t::null:
      return "null";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
      return JsNumber(value.get<double>());
    case Json::value_t::array: {
      std::string out;
      bool first = true;
      for (const auto& e : value) {
        if (!first) out += ',';
        first = false;
        if (!e.is_null()) out += JsString(e);
      }
      return out;
    }
    default:
      return "[object Object]";
  }
}

double JsToNumber(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null:
      return 0;
    case Json::value_t::boolean:
      return value.get<bool>() ? 1 : 0;
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
      return value.get<double>();
    case Json::value_t::string:
      return StringToNumber(value.get_ref<const std::string&>());
    case Json::value_t::array:
      return StringToNumber(JsString(value));
    default:
      return std::nan("");
  }
}

bool JsTruthy(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null:
    case Json::value_t::discarded:
      return false;
    case Json::value_t::boolean:
      return value.get<bool>();
    case Json::value_t::string:
      return !value.get_ref<const std::string&>().empty();
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float: {
      double d = value.get<double>();
      return d == d && d != 0;
    }
    default:
      return true;
  }
}

std::string JsStringify(const Json& value, int indent) {
  std::string out;
  Stringify(value, indent, 0, out);
  return out;
}

double JsRound(double value) {
  if (!std::isfinite(value)) return value;
  double r = std::floor(value);
  if (value - r >= 0.5) r += 1;
  return r;
}

std::string JsIsoDate(std::int64_t epoch_ms) {
  std::int64_t secs = epoch_ms >= 0 ? epoch_ms / 1000 : (epoch_ms - 999) / 1000;
  int ms = static_cast<int>(epoch_ms - secs * 1000);
  std::time_t t = static_cast<std::time_t>(secs);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
  return buf;
}

std::string FormUrlEncode(std::string_view utf8) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (char ch : utf8) {
    auto c = static_cast<unsigned char>(ch);
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '*' || c == '-' ||
        c == '.' || c == '_') {
      out += static_cast<char>(c);
    } else if (c == ' ') {
      out += '+';
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string JsLowerCase(std::string_view utf8) {
  icu::UnicodeString s = icu::UnicodeString::fromUTF8(icu::StringPiece(utf8.data(), static_cast<int32_t>(utf8.size())));
  s.toLower(icu::Locale::getRoot());
  std::string out;
  s.toUTF8String(out);
  return out;
}

std::int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace sbx::servers::desktop_commander
