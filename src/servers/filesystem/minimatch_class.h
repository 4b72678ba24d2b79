// The character-level pieces of minimatch's glob-to-regex translation:
// bracket expressions (with POSIX classes), regex escaping and unescape().
// Strings are JavaScript strings (UTF-16). Internal to minimatch_ast.cc.
#pragma once

#include <cstddef>
#include <string>

namespace sbx::servers::filesystem::glob {

bool IsLineTerminator(char16_t c);

// regExpEscape: a backslash before -[]{}()*+?.,\^$|# and white space.
std::u16string RegExpEscape(const std::u16string& s);
// braceEscape: a backslash before [ ] \ -.
std::u16string BraceEscape(const std::u16string& s);

struct ClassResult {
  std::u16string src;  // regex source ("" when not a class)
  bool uflag = false;  // needs the u flag (POSIX classes)
  std::size_t consumed = 0;
  bool magic = false;  // false: a single literal character
};

// minimatch's unescape() (default options): drops "[x]" and "\x" escapes.
std::u16string Unescape(const std::u16string& s);

// minimatch's parseClass: the bracket expression of `glob` at `pos`.
ClassResult ParseClass(const std::u16string& glob, std::size_t pos);

}  // namespace sbx::servers::filesystem::glob
