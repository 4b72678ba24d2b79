// Upstream's language table: for each languageId (in upstream's order, which
// is the order of the tool schema's enum) the command that runs a file, and
// the extension of the file the code is written to.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace sbx::servers::code_runner {

struct Language {
  std::string_view id;
  // Upstream's command line; the file's quoted path is appended.
  std::string_view command;
  // Used instead when `command`'s program is not installed but this one's
  // is (Debian ships python3 without a `python`, and perl6 became raku).
  // Empty: no alternative.
  std::string_view fallback;
  // Upstream names the file tmp.<extension>; the extension is the
  // languageId itself except for three languages.
  std::string_view extension;
};

std::span<const Language> Languages();
// nullptr for an id not in the table.
const Language* FindLanguage(std::string_view id);

// The program of a command line: its first word.
std::string ProgramOf(std::string_view command);

}  // namespace sbx::servers::code_runner
