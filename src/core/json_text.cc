#include "core/json_text.h"

#include <array>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/utf8.h"

namespace sbx {
namespace {

// Bytes that end a run of plain text: the two that JSON escapes, control
// characters, and the lead bytes of multi-byte UTF-8 (checked one by one).
constexpr std::array<bool, 256> kStops = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 0x20; ++c) t[c] = true;
  t['"'] = t['\\'] = true;
  for (int c = 0x80; c < 0x100; ++c) t[c] = true;
  return t;
}();

// The first byte at or after `i` that kStops marks, or s.size(). Replies
// are mostly long runs of plain text (a listing, a file), so SSE2 checks 16
// bytes at a time where the build has it (every x86-64 does).
std::size_t NextStop(std::string_view s, std::size_t i) {
#if defined(__SSE2__)
  const __m128i space = _mm_set1_epi8(0x20), quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
  for (; i + 16 <= s.size(); i += 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i));
    // A signed compare: control characters and every byte from 0x80 up
    // (negative as signed) are below 0x20.
    __m128i stops = _mm_or_si128(_mm_cmplt_epi8(v, space),
                                 _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
    if (int mask = _mm_movemask_epi8(stops)) return i + static_cast<std::size_t>(__builtin_ctz(mask));
  }
#endif
  while (i < s.size() && !kStops[static_cast<unsigned char>(s[i])]) ++i;
  return i;
}

// The second character of the two-character escapes JSON has; 0 for the
// other stops below 0x80 (they become \u00XX).
constexpr std::array<char, 128> kShortEscape = [] {
  std::array<char, 128> t{};
  t['"'] = '"';
  t['\\'] = '\\';
  t['\b'] = 'b';
  t['\f'] = 'f';
  t['\n'] = 'n';
  t['\r'] = 'r';
  t['\t'] = 't';
  return t;
}();

bool AppendValidUtf8(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::size_t i = 0, run = 0;
  while ((i = NextStop(s, i)) < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      std::size_t len = utf8::SequenceLength(s, i);
      if (len == 0) return false;
      i += len;
      continue;
    }
    out.append(s.data() + run, i - run);
    if (const char e = kShortEscape[c]) {
      const char esc[2] = {'\\', e};
      out.append(esc, 2);
    } else {
      const char esc[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
      out.append(esc, 6);
    }
    run = ++i;
  }
  out.append(s.data() + run, s.size() - run);
  return true;
}

}  // namespace

void AppendJsonString(std::string& out, std::string_view s) {
  std::size_t start = out.size();
  // Room for the quotes and some escapes (a listing has one per line).
  out.reserve(start + s.size() + s.size() / 8 + 2);
  out += '"';
  if (AppendValidUtf8(out, s)) {
    out += '"';
    return;
  }
  out.resize(start);
  out += Json(std::string(s)).dump(-1, ' ', false, Json::error_handler_t::replace);
}

void AppendJson(std::string& out, const Json& value) {
  switch (value.type()) {
    case Json::value_t::string:
      AppendJsonString(out, value.get_ref<const std::string&>());
      return;
    case Json::value_t::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, item] : value.items()) {
        if (!first) out += ',';
        first = false;
        AppendJsonString(out, key);
        out += ':';
        AppendJson(out, item);
      }
      out += '}';
      return;
    }
    case Json::value_t::array: {
      out += '[';
      bool first = true;
      for (const auto& item : value) {
        if (!first) out += ',';
        first = false;
        AppendJson(out, item);
      }
      out += ']';
      return;
    }
    default:  // numbers, booleans, null, binary: nlohmann's own formatting
      out += value.dump(-1, ' ', false, Json::error_handler_t::replace);
  }
}

void AppendJsonIndented(std::string& out, const Json& value, int indent, int depth) {
  bool object = value.is_object();
  if ((!object && !value.is_array()) || value.empty()) {
    AppendJson(out, value);
    return;
  }
  const std::size_t inner = static_cast<std::size_t>(indent) * (depth + 1);
  out += object ? "{\n" : "[\n";
  bool first = true;
  for (auto it = value.begin(); it != value.end(); ++it) {
    if (!first) out += ",\n";
    first = false;
    out.append(inner, ' ');
    if (object) {
      AppendJsonString(out, it.key());
      out += ": ";
    }
    AppendJsonIndented(out, *it, indent, depth + 1);
  }
  out += '\n';
  out.append(inner - indent, ' ');
  out += object ? '}' : ']';
}

}  // namespace sbx
