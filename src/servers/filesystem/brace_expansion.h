// Bash-style brace expansion with the rules and bounds of the
// `brace-expansion` npm package (5.x) that minimatch uses: "a{b,c}d" ->
// ["abd", "acd"], sequences "{1..3}", "{a..e..2}", zero padding, escaped
// braces, the "{a},b}" quirk, and the package's limits on results (100,000),
// total length, nesting depth and work (past which the rest stays literal).
// Strings are JavaScript strings (UTF-16), as the package sees them.
#pragma once

#include <string>
#include <vector>

namespace sbx::servers::filesystem {

// minimatch's braceExpand(pattern): [pattern] unchanged when it holds no
// "{…}" group, else the expansion.
std::vector<std::u16string> BraceExpand(const std::u16string& pattern);

}  // namespace sbx::servers::filesystem
