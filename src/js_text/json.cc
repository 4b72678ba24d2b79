#include "js_text/json.h"

#include <algorithm>
#include <cmath>

#include "core/json_text.h"
#include "core/utf8.h"
#include "js_text/number.h"

namespace sbx::js {
namespace {

void Stringify(const Json& v, int indent, int depth, std::string& out) {
  auto newline = [&](int level) {
    out += '\n';
    out.append(static_cast<std::size_t>(indent * level), ' ');
  };
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
        if (!first) out += ',';
        first = false;
        if (indent) newline(depth + 1);
        if (is_object) {
          AppendJsonQuoted(out, it.key());
          out += indent ? ": " : ":";
        }
        Stringify(it.value(), indent, depth + 1, out);
      }
      if (indent) newline(depth);
      out += is_object ? '}' : ']';
      return;
    }
    case Json::value_t::string:
      AppendJsonQuoted(out, v.get_ref<const std::string&>());
      return;
    case Json::value_t::boolean:
      out += v.get<bool>() ? "true" : "false";
      return;
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float: {
      double d = v.get<double>();
      out += std::isfinite(d) ? NumberToString(d) : "null";
      return;
    }
    default:
      out += "null";
  }
}

// Whether every ill-formed part of `s` is a WTF-8 surrogate.
bool IsWtf8(std::string_view s) {
  for (std::size_t i = 0; (i = utf8::AsciiRunEnd(s, i)) < s.size();) {
    std::size_t len = utf8::SequenceLength(s, i, utf8::Surrogates::kAllow);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

}  // namespace

void AppendJsonQuoted(std::string& out, std::string_view s) {
  // Well-formed text, and text with ill-formed bytes (never a JS string:
  // they are replaced as core's writer does), take core's fast path.
  if (utf8::IsWellFormed(s) || !IsWtf8(s)) {
    AppendJsonString(out, s);
    return;
  }
  // Lone surrogates: \udXXX, everything else as core writes it.
  out += '"';
  std::size_t run = 0;
  for (std::size_t i = 0; i < s.size();) {
    utf8::Decoded d = utf8::Decode(s, i, utf8::Surrogates::kAllow);
    if (d.code_point < 0xD800 || d.code_point > 0xDFFF) {
      i += d.length;
      continue;
    }
    std::string piece;
    AppendJsonString(piece, s.substr(run, i - run));
    out.append(piece, 1, piece.size() - 2);
    static constexpr char kHex[] = "0123456789abcdef";
    const char esc[6] = {'\\', 'u', 'd', kHex[d.code_point >> 8 & 15], kHex[d.code_point >> 4 & 15],
                         kHex[d.code_point & 15]};
    out.append(esc, 6);
    run = i += d.length;
  }
  std::string piece;
  AppendJsonString(piece, s.substr(run));
  out.append(piece, 1, piece.size() - 2);
  out += '"';
}

std::string JsonQuote(std::string_view utf8) {
  std::string out;
  AppendJsonQuoted(out, utf8);
  return out;
}

std::string Stringify(const Json& value, int indent) {
  std::string out;
  Stringify(value, std::clamp(indent, 0, 10), 0, out);
  return out;
}

std::string ToString(const Json& value) {
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
      return NumberToString(value.get<double>());
    case Json::value_t::array: {
      std::string out;
      bool first = true;
      for (const auto& e : value) {
        if (!first) out += ',';
        first = false;
        if (!e.is_null()) out += ToString(e);
      }
      return out;
    }
    default:
      return "[object Object]";
  }
}

double ToNumber(const Json& value) {
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
      return StringToNumber(ToString(value));
    default:
      return std::nan("");
  }
}

bool ToBoolean(const Json& value) {
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

}  // namespace sbx::js
