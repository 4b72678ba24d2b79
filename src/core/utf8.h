// The one UTF-8 decoder and encoder of the tree. Well-formedness follows
// Unicode's table 3-7 (no overlong forms, no surrogates, nothing past
// U+10FFFF) and is checked without allocating: it runs over every byte of
// hot replies and files. Where a caller models a language whose strings may
// hold lone surrogates (Python's str, JavaScript's String), those are
// carried as WTF-8: the three-byte form ED A0..BF xx, accepted only when
// the caller asks (Surrogates::kAllow). What to do with an ill-formed byte
// is each caller's rule (CPython's and WHATWG's "replace" agree, see
// ReplaceInvalid); this file only says where a sequence is ill-formed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace sbx::utf8 {

// U+FFFD, what a lossy decoder puts for an ill-formed sequence.
inline constexpr char32_t kReplacement = 0xFFFD;

// Whether the WTF-8 encoding of a lone surrogate counts as a sequence.
enum class Surrogates { kReject, kAllow };

// The length of the well-formed sequence that starts at s[i] (a byte of
// 0x80 or more), or 0 if none does.
inline std::size_t SequenceLength(std::string_view s, std::size_t i,
                                  Surrogates surrogates = Surrogates::kReject) {
  auto c = static_cast<unsigned char>(s[i]);
  std::size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
  if (len == 0 || c > 0xF4 || i + len > s.size()) return 0;
  auto b1 = static_cast<unsigned char>(s[i + 1]);
  if ((c == 0xE0 && b1 < 0xA0) || (c == 0xED && b1 > 0x9F && surrogates == Surrogates::kReject) ||
      (c == 0xF0 && b1 < 0x90) || (c == 0xF4 && b1 > 0x8F))
    return 0;
  for (std::size_t k = 1; k < len; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  return len;
}

// The length of the ill-formed part that starts at s[i] (where
// SequenceLength is 0): Unicode's "maximal subpart", the longest prefix of a
// well-formed sequence found there, or 1. CPython's "replace" error handler
// and the WHATWG decoder (Node's Buffer#toString) both put one U+FFFD per
// such part.
inline std::size_t MaximalSubpart(std::string_view s, std::size_t i) {
  auto c = static_cast<unsigned char>(s[i]);
  if (c < 0xC2 || c > 0xF4) return 1;
  std::size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
  unsigned char lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
  unsigned char hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
  std::size_t k = 1;
  for (; k < len && i + k < s.size(); ++k) {
    auto b = static_cast<unsigned char>(s[i + k]);
    if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xBF)) break;
  }
  return k;
}

// Whether s[i] can start a well-formed sequence at all (CPython reports an
// ill-formed part that starts elsewhere as an "invalid start byte").
inline bool IsLeadByte(unsigned char c) { return c < 0x80 || (c >= 0xC2 && c <= 0xF4); }

// One decoded code point and the bytes it took; length 0 where s[i]
// starts no well-formed sequence.
struct Decoded {
  char32_t code_point = 0;
  std::size_t length = 0;
};

inline Decoded Decode(std::string_view s, std::size_t i, Surrogates surrogates = Surrogates::kReject) {
  auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return {c, 1};
  std::size_t len = SequenceLength(s, i, surrogates);
  if (len == 0) return {};
  char32_t cp = len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
  for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  return {cp, len};
}

// The code point at s[i], advancing i past it: for text already known to
// be well-formed (JSON strings, decoded text). An ill-formed byte reads as
// U+FFFD and is passed on its own.
inline char32_t Next(std::string_view s, std::size_t& i, Surrogates surrogates = Surrogates::kReject) {
  Decoded d = Decode(s, i, surrogates);
  if (d.length == 0) {
    ++i;
    return kReplacement;
  }
  i += d.length;
  return d.code_point;
}

// Appends the UTF-8 of `cp` (a surrogate comes out in its WTF-8 form).
inline void Append(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    const char b[2] = {static_cast<char>(0xC0 | (cp >> 6)), static_cast<char>(0x80 | (cp & 0x3F))};
    out.append(b, 2);
  } else if (cp < 0x10000) {
    const char b[3] = {static_cast<char>(0xE0 | (cp >> 12)), static_cast<char>(0x80 | ((cp >> 6) & 0x3F)),
                       static_cast<char>(0x80 | (cp & 0x3F))};
    out.append(b, 3);
  } else {
    const char b[4] = {static_cast<char>(0xF0 | (cp >> 18)), static_cast<char>(0x80 | ((cp >> 12) & 0x3F)),
                       static_cast<char>(0x80 | ((cp >> 6) & 0x3F)), static_cast<char>(0x80 | (cp & 0x3F))};
    out.append(b, 4);
  }
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

// Bytes made well-formed: one U+FFFD for each maximal subpart (see
// MaximalSubpart), as CPython's bytes.decode("utf-8", "replace") and Node's
// Buffer#toString("utf-8") both read them; runs of ASCII are copied whole.
std::string ReplaceInvalid(std::string_view bytes);

// Code points <-> UTF-16 code units, as JavaScript strings hold text. To
// UTF-16: ill-formed bytes read as U+FFFD, a WTF-8 surrogate as itself. From
// UTF-16: a lone surrogate becomes U+FFFD, or with Surrogates::kAllow its
// WTF-8 form.
std::u16string ToUtf16(std::string_view utf8);
std::string FromUtf16(std::u16string_view utf16, Surrogates surrogates = Surrogates::kReject);

// The number of code points in `s`: its bytes that do not continue a
// sequence (for well-formed text, its length in characters as Python counts).
inline std::size_t CountCodePoints(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char b : s) n += (b & 0xC0) != 0x80;
  return n;
}

// The first index at or after `i` whose byte does not continue a sequence:
// cutting there keeps the characters after it whole.
inline std::size_t NextBoundary(std::string_view s, std::size_t i) {
  while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) ++i;
  return i;
}

// Drops a multi-byte sequence that the end of `s` cuts short (output capped
// at a byte count), so a reader decoding it strictly does not fail.
inline void DropIncompleteTail(std::string& s) {
  std::size_t i = s.size();
  std::size_t continuation = 0;
  while (i > 0 && continuation < 3 && (static_cast<unsigned char>(s[i - 1]) & 0xC0) == 0x80) {
    --i;
    ++continuation;
  }
  if (i == 0) return;
  auto lead = static_cast<unsigned char>(s[i - 1]);
  std::size_t needed = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : 0;
  if (needed > continuation) s.resize(i - 1);
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
