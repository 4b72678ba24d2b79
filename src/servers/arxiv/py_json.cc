#include "servers/arxiv/py_json.h"

#include <cstdint>
#include <cstdio>

namespace sbx::servers::arxiv {
namespace {

// Decodes one UTF-8 sequence at s[i]; returns the code point (U+FFFD for a
// malformed sequence, consuming one byte) and advances i.
std::uint32_t NextCodePoint(const std::string& s, std::size_t& i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char b0 = byte(i);
  if (b0 < 0x80) {
    ++i;
    return b0;
  }
  int extra = (b0 >> 5) == 0x6 ? 1 : (b0 >> 4) == 0xE ? 2 : (b0 >> 3) == 0x1E ? 3 : -1;
  if (extra < 0 || i + static_cast<std::size_t>(extra) >= s.size()) {
    ++i;
    return 0xFFFD;
  }
  std::uint32_t cp = b0 & (0x3F >> extra);
  for (int k = 1; k <= extra; ++k) {
    unsigned char b = byte(i + k);
    if ((b & 0xC0) != 0x80) {
      ++i;
      return 0xFFFD;
    }
    cp = (cp << 6) | (b & 0x3F);
  }
  static constexpr std::uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
  if (cp < kMin[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    ++i;
    return 0xFFFD;
  }
  i += extra + 1;
  return cp;
}

void AppendEscape(std::string& out, std::uint32_t unit) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(unit));
  out += buf;
}

void AppendString(std::string& out, const std::string& s) {
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    std::uint32_t cp = NextCodePoint(s, i);
    switch (cp) {
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      case '\b': out += "\\b"; continue;
      case '\f': out += "\\f"; continue;
      default: break;
    }
    if (cp >= 0x20 && cp < 0x7F) {
      out += static_cast<char>(cp);
    } else if (cp < 0x10000) {
      AppendEscape(out, cp);
    } else {
      std::uint32_t v = cp - 0x10000;
      AppendEscape(out, 0xD800 | (v >> 10));
      AppendEscape(out, 0xDC00 | (v & 0x3FF));
    }
  }
  out += '"';
}

void Newline(std::string& out, int indent, int depth) {
  out += '\n';
  out.append(static_cast<std::size_t>(indent * depth), ' ');
}

void Dump(std::string& out, const Json& v, int indent, int depth) {
  switch (v.type()) {
    case Json::value_t::object:
    case Json::value_t::array: {
      const bool is_object = v.is_object();
      if (v.empty()) {
        out += is_object ? "{}" : "[]";
        return;
      }
      out += is_object ? '{' : '[';
      bool first = true;
      for (auto it = v.begin(); it != v.end(); ++it) {
        if (!first) out += indent < 0 ? ", " : ",";
        first = false;
        if (indent >= 0) Newline(out, indent, depth + 1);
        if (is_object) {
          AppendString(out, it.key());
          out += ": ";
        }
        Dump(out, it.value(), indent, depth + 1);
      }
      if (indent >= 0) Newline(out, indent, depth);
      out += is_object ? '}' : ']';
      return;
    }
    case Json::value_t::string:
      AppendString(out, v.get_ref<const std::string&>());
      return;
    case Json::value_t::boolean:
      out += v.get<bool>() ? "true" : "false";
      return;
    case Json::value_t::null:
    case Json::value_t::discarded:
      out += "null";
      return;
    default:
      // Numbers: the results only hold integers, which both print alike.
      out += v.dump();
      return;
  }
}

}  // namespace

std::string PyDumps(const Json& value, int indent) {
  std::string out;
  Dump(out, value, indent, 0);
  return out;
}

}  // namespace sbx::servers::arxiv
