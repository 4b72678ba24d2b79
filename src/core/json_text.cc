#include "core/json_text.h"

#include <array>
#include <cstring>

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

bool AppendValidUtf8(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::size_t i = 0, run = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    if (!kStops[c]) {
      ++i;
      continue;
    }
    if (c >= 0x80) {
      std::size_t len = utf8::SequenceLength(s, i);
      if (len == 0) return false;
      i += len;
      continue;
    }
    out.append(s.data() + run, i - run);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: {
        const char esc[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
        out.append(esc, 6);
      }
    }
    run = ++i;
  }
  out.append(s.data() + run, s.size() - run);
  return true;
}

}  // namespace

void AppendJsonString(std::string& out, std::string_view s) {
  std::size_t start = out.size();
  out.reserve(start + s.size() + 2);
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
