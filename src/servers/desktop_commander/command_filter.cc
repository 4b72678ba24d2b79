#include "servers/desktop_commander/command_filter.h"

#include <algorithm>

#include "core/utf8.h"
#include "js_text/string.h"

namespace sbx::servers::desktop_commander {
namespace {

using js::IsWhitespace;

// Code points, so that /\s/ and /\S/ see what JavaScript sees.
std::u32string Decode(std::string_view utf8) {
  std::u16string u16 = utf8::ToUtf16(js::DecodeUtf8Lossy(utf8));
  std::u32string out;
  for (std::size_t i = 0; i < u16.size(); ++i) {
    char32_t c = u16[i];
    if (c >= 0xD800 && c <= 0xDBFF && i + 1 < u16.size() && u16[i + 1] >= 0xDC00 && u16[i + 1] <= 0xDFFF)
      c = 0x10000 + ((c - 0xD800) << 10) + (u16[++i] - 0xDC00);
    out.push_back(c);
  }
  return out;
}

std::string Encode(std::u32string_view s) {
  std::u16string u16;
  for (char32_t c : s) {
    if (c >= 0x10000) {
      u16.push_back(static_cast<char16_t>(0xD800 + ((c - 0x10000) >> 10)));
      u16.push_back(static_cast<char16_t>(0xDC00 + ((c - 0x10000) & 0x3FF)));
    } else {
      u16.push_back(static_cast<char16_t>(c));
    }
  }
  return utf8::FromUtf16(u16);
}

bool IsWord(char32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

std::u32string Trim(std::u32string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && js::IsWhitespace(s[b])) ++b;
  while (e > b && js::IsWhitespace(s[e - 1])) --e;
  return std::u32string(s.substr(b, e - b));
}

// commandStr.replace(/\w+=\S+\s*/g, '')
std::u32string DropAssignments(std::u32string_view s) {
  std::u32string out;
  std::size_t i = 0;
  while (i < s.size()) {
    if (!IsWord(s[i])) {
      out.push_back(s[i++]);
      continue;
    }
    std::size_t j = i;
    while (j < s.size() && IsWord(s[j])) ++j;
    if (j + 1 < s.size() && s[j] == '=' && !js::IsWhitespace(s[j + 1])) {
      std::size_t k = j + 1;
      while (k < s.size() && !js::IsWhitespace(s[k])) ++k;
      while (k < s.size() && js::IsWhitespace(s[k])) ++k;
      i = k;
      continue;
    }
    out.append(s.substr(i, j - i));  // no match can start inside this word either
    i = j;
  }
  return out;
}

// extractBaseCommand: empty when there is none.
std::string BaseCommand(std::u32string_view command) {
  std::u32string rest = Trim(DropAssignments(command));
  if (rest.empty()) return "";
  std::size_t end = 0;
  while (end < rest.size() && !js::IsWhitespace(rest[end])) ++end;
  if (rest[0] == '(' || rest[0] == '$') return "";
  return js::ToLowerCase(Encode(std::u32string_view(rest).substr(0, end)));
}

void Extract(std::u32string_view input, std::vector<std::string>& out) {
  std::u32string s = Trim(input);
  static const std::u32string kSeparators[] = {U";", U"&&", U"||", U"|", U"&"};
  bool in_quote = false, escaped = false;
  char32_t quote = 0;
  std::u32string current;
  auto finish = [&] {
    std::u32string t = Trim(current);
    if (!t.empty()) {
      std::string base = BaseCommand(t);
      if (!base.empty()) out.push_back(base);
    }
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    char32_t c = s[i];
    if (c == '\\' && !escaped) {
      escaped = true;
      current.push_back(c);
      continue;
    }
    if (escaped) {
      escaped = false;
      current.push_back(c);
      continue;
    }
    if ((c == '"' || c == '\'') && !in_quote) {
      in_quote = true;
      quote = c;
      current.push_back(c);
      continue;
    }
    if (in_quote && c == quote) {
      in_quote = false;
      quote = 0;
      current.push_back(c);
      continue;
    }
    if (in_quote) {
      current.push_back(c);
      continue;
    }
    if (c == '(') {
      // The matching ")" (or the end); upstream takes the text up to the
      // character before it, so an unclosed "(" loses the last character.
      int open = 1;
      std::size_t j = i + 1;
      while (j < s.size() && open > 0) {
        if (s[j] == '(') ++open;
        if (s[j] == ')') --open;
        ++j;
      }
      std::size_t len = j - 1 > i + 1 ? j - 1 - (i + 1) : 0;
      Extract(std::u32string_view(s).substr(i + 1, len), out);
      i = j - 1;
      continue;
    }
    bool separator = false;
    for (const auto& sep : kSeparators) {
      if (s.compare(i, sep.size(), sep) == 0) {
        finish();
        i += sep.size() - 1;
        current.clear();
        separator = true;
        break;
      }
    }
    if (!separator) current.push_back(c);
  }
  finish();
}

}  // namespace

std::vector<std::string> ExtractCommands(std::string_view command_line) {
  std::vector<std::string> all;
  Extract(Decode(command_line), all);
  std::vector<std::string> unique;
  for (auto& c : all)
    if (std::find(unique.begin(), unique.end(), c) == unique.end()) unique.push_back(std::move(c));
  return unique;
}

bool IsCommandAllowed(std::string_view command_line, const Json& blocked_commands) {
  auto blocked = [&](const std::string& name) {
    if (!blocked_commands.is_array()) return false;
    for (const auto& b : blocked_commands)
      if (b.is_string() && b.get_ref<const std::string&>() == name) return true;
    return false;
  };
  std::vector<std::string> commands = ExtractCommands(command_line);
  if (commands.empty()) {
    // getBaseCommand: the text before the first space, lower-cased, trimmed.
    std::string_view first = command_line.substr(0, command_line.find(' '));
    return !blocked(std::string(js::Trim(js::ToLowerCase(first))));
  }
  for (const auto& c : commands)
    if (blocked(c)) return false;
  return true;
}

}  // namespace sbx::servers::desktop_commander
