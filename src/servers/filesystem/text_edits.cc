#include "servers/filesystem/text_edits.h"

#include <algorithm>
#include <cstdint>

#include "core/strings.h"
#include "core/utf8.h"
#include "js_text/string.h"
#include "servers/filesystem/limits.h"
#include "servers/filesystem/line_diff.h"
#include "servers/filesystem/node_errors.h"

namespace sbx::servers::filesystem {
namespace {

std::vector<std::string> Split(const std::string& s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  for (;;) {
    std::size_t j = s.find('\n', i);
    if (j == std::string::npos) {
      out.push_back(s.substr(i));
      return out;
    }
    out.push_back(s.substr(i, j - i));
    i = j + 1;
  }
}

// Length in UTF-16 units of a run of JS white space (all in the BMP).
long Width(std::string_view ws) { return static_cast<long>(utf8::CountCodePoints(ws)); }

// String#replace's GetSubstitution for a string pattern (no captures, so
// "$1" and "$<" stay as written): the replacement for the match of
// `length` bytes at `at` in `subject`.
std::string JsReplacement(const std::string& replacement, const std::string& subject, std::size_t at,
                          std::size_t length) {
  std::string out;
  for (std::size_t i = 0; i < replacement.size(); ++i) {
    char next = i + 1 < replacement.size() ? replacement[i + 1] : '\0';
    if (replacement[i] != '$' || next == '\0') {
      out += replacement[i];
    } else if (next == '$') {
      out += '$', ++i;
    } else if (next == '&') {
      out += subject.substr(at, length), ++i;
    } else if (next == '`') {
      out += subject.substr(0, at), ++i;
    } else if (next == '\'') {
      out += subject.substr(at + length), ++i;
    } else {
      out += '$';
    }
  }
  return out;
}

}  // namespace

std::string NormalizeLineEndings(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
    out.push_back(text[i]);
  }
  return out;
}

std::string ApplyTextEdits(const std::string& content, const std::vector<TextEdit>& edits,
                           bool js_patterns) {
  std::string modified = content;
  std::uint64_t work = 0;
  for (const auto& edit : edits) {
    std::string old_text = NormalizeLineEndings(edit.old_text);
    std::string new_text = NormalizeLineEndings(edit.new_text);
    if (std::size_t at = modified.find(old_text); at != std::string::npos) {
      if (js_patterns) new_text = JsReplacement(new_text, modified, at, old_text.size());
      modified.replace(at, old_text.size(), new_text);
      continue;
    }
    std::vector<std::string> old_lines = Split(old_text);
    std::vector<std::string> lines = Split(modified);
    std::vector<std::string_view> old_trimmed, trimmed;
    for (const auto& l : old_lines) old_trimmed.push_back(js::Trim(l));
    for (const auto& l : lines) trimmed.push_back(js::Trim(l));
    bool found = false;
    for (std::size_t i = 0; i + old_lines.size() <= lines.size(); ++i) {
      bool match = true;
      for (std::size_t j = 0; j < old_lines.size() && match; ++j) {
        if (++work > kMaxDiffSteps)
          throw FsError("Could not match this edit within this server's limit of " +
                        std::to_string(kMaxDiffSteps) +
                        " line comparisons; nothing was written. Give a shorter or more "
                        "distinctive oldText.");
        match = old_trimmed[j] == trimmed[i + j];
      }
      if (!match) continue;
      std::string indent(js::LeadingWhitespace(lines[i]));
      std::vector<std::string> replacement;
      std::vector<std::string> new_lines = Split(new_text);
      for (std::size_t j = 0; j < new_lines.size(); ++j) {
        const std::string& line = new_lines[j];
        if (j == 0) {
          replacement.push_back(indent + std::string(js::TrimStart(line)));
          continue;
        }
        std::string_view old_indent =
            j < old_lines.size() ? js::LeadingWhitespace(old_lines[j]) : std::string_view();
        std::string_view new_indent = js::LeadingWhitespace(line);
        if (!old_indent.empty() && !new_indent.empty()) {
          long relative = Width(new_indent) - Width(old_indent);
          replacement.push_back(indent +
                                std::string(static_cast<std::size_t>(std::max(0L, relative)), ' ') +
                                std::string(js::TrimStart(line)));
        } else {
          replacement.push_back(line);
        }
      }
      lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(i),
                  lines.begin() + static_cast<std::ptrdiff_t>(i + old_lines.size()));
      lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(i), replacement.begin(),
                   replacement.end());
      modified = strings::Join(lines, "\n");
      found = true;
      break;
    }
    if (!found) throw FsError("Could not find exact match for edit:\n" + edit.old_text);
  }
  return modified;
}

std::string FormatEditDiff(const std::string& path, const std::string& original,
                           const std::string& modified) {
  std::string diff = CreateTwoFilesPatch(path, path, NormalizeLineEndings(original),
                                         NormalizeLineEndings(modified), "original", "modified");
  std::size_t ticks = 3;
  while (diff.find(std::string(ticks, '`')) != std::string::npos) ++ticks;
  std::string fence(ticks, '`');
  return fence + "diff\n" + diff + fence + "\n\n";
}

}  // namespace sbx::servers::filesystem
