// Small string operations several layers need, in one place.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sbx::strings {

// `parts` with `separator` between each two (Python's str.join, JavaScript's
// Array#join): empty parts keep their separators.
inline std::string Join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i) out += separator;
    out += parts[i];
  }
  return out;
}

}  // namespace sbx::strings
