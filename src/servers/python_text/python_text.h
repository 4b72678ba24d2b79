// CPython text behaviour shared by the servers whose upstream is a Python
// program (git, terminal): repr() of a str and the UTF-8 decoder's results
// and error messages. One implementation, so every server's texts match
// upstream the same way. Strings are UTF-8; the reference is CPython 3.13.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace sbx::servers::py {

// repr() of the str made of `code_points`: quotes chosen as CPython does,
// \n \r \t \\ and the quote escaped, other non-printable characters as
// \xNN / \uNNNN / \UNNNNNNNN (printable per Unicode general category).
std::string ReprCodePoints(std::u32string_view code_points);

// repr() of a str whose UTF-8 is `text`; invalid sequences are read as
// bytes.decode("utf-8", "replace") reads them (one U+FFFD each).
std::string Repr(std::string_view text);

// bytes.decode("utf-8", "replace"): one U+FFFD per invalid sequence, with
// CPython's notion of where each invalid sequence ends.
std::string DecodeUtf8Replace(std::string_view bytes);

// The message of the UnicodeDecodeError bytes.decode("utf-8") raises, e.g.
// "'utf-8' codec can't decode byte 0xe9 in position 3: invalid continuation
// byte"; nullopt when `bytes` is valid UTF-8.
std::optional<std::string> Utf8DecodeError(std::string_view bytes);

// Appends the UTF-8 encoding of `code_point` to `out`.
void AppendUtf8(std::string& out, char32_t code_point);

// CPython's Py_UNICODE_ISPRINTABLE: everything but the "Other" and
// "Separator" categories, except the ASCII space.
bool IsPrintable(char32_t code_point);

}  // namespace sbx::servers::py
