// edit_file's text work, as upstream's applyFileEdits does it: each edit
// replaces the first exact occurrence of its oldText, or else the first run
// of lines equal to oldText's lines once leading/trailing white space is
// ignored (re-indenting the replacement to the matched block's indentation);
// the result is shown as a unified diff in a Markdown fence long enough for
// the diff's own backticks. Pure functions, thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sbx::servers::filesystem {

struct TextEdit {
  std::string old_text;
  std::string new_text;
};

// "\r\n" -> "\n" (one pass, as String#replace(/\r\n/g, '\n')).
std::string NormalizeLineEndings(std::string_view text);

// Applies `edits` in order to `content` (already line-ending normalized).
// Throws FsError("Could not find exact match for edit:\n<oldText>").
// `js_patterns` (the 2025.7.1 variant, whose exact match went through
// String#replace): newText's "$$", "$&", "$`" and "$'" are expanded as
// String#replace expands them for a string pattern.
std::string ApplyTextEdits(const std::string& content, const std::vector<TextEdit>& edits,
                           bool js_patterns = false);

// The text edit_file returns: "```diff\n<patch>```\n\n" (more backticks when
// the patch holds a run of three or more).
std::string FormatEditDiff(const std::string& path, const std::string& original,
                           const std::string& modified);

}  // namespace sbx::servers::filesystem
