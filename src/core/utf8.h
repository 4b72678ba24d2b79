// UTF-8 well-formedness (Unicode's table 3-7: no overlong forms, no
// surrogates, nothing past U+10FFFF), checked without allocating: it runs
// over every byte of hot replies and files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace sbx::utf8 {

// The length of the well-formed sequence that starts at s[i] (a byte of
// 0x80 or more), or 0 if none does.
inline std::size_t SequenceLength(std::string_view s, std::size_t i) {
  auto c = static_cast<unsigned char>(s[i]);
  std::size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
  if (len == 0 || c > 0xF4 || i + len > s.size()) return 0;
  auto b1 = static_cast<unsigned char>(s[i + 1]);
  if ((c == 0xE0 && b1 < 0xA0) || (c == 0xED && b1 > 0x9F) || (c == 0xF0 && b1 < 0x90) ||
      (c == 0xF4 && b1 > 0x8F))
    return 0;
  for (std::size_t k = 1; k < len; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  return len;
}

// The end of the run of ASCII bytes that starts at s[i] (s.size() if the
// rest is ASCII), checked eight bytes at a time: most text is ASCII.
inline std::size_t AsciiRunEnd(std::string_view s, std::size_t i) {
  constexpr std::uint64_t kHighBits = 0x8080808080808080ull;
  for (std::uint64_t word; i + 8 <= s.size(); i += 8) {
    std::memcpy(&word, s.data() + i, 8);
    if (word & kHighBits) break;
  }
  while (i < s.size() && static_cast<unsigned char>(s[i]) < 0x80) ++i;
  return i;
}

inline bool IsWellFormed(std::string_view s) {
  std::size_t i = 0;
  while ((i = AsciiRunEnd(s, i)) < s.size()) {
    std::size_t len = SequenceLength(s, i);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

}  // namespace sbx::utf8
