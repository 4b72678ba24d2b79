// The few pieces of CPython's text behaviour that reach cli-mcp-server's
// result texts: len() of a str, str.strip(), repr() of a str (in OSError
// messages), strict UTF-8 decoding with its UnicodeDecodeError text, the
// universal-newline translation subprocess applies in text mode, and
// str(OSError). Strings here are UTF-8; the reference is CPython 3.13 (the
// version cli-mcp-server's .python-version names).
//
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "python_text/codec.h"

namespace sbx::servers::terminal::py {

// len(s) for the str whose UTF-8 encoding is `utf8`: its code points.
std::size_t Length(std::string_view utf8);

// s.strip(): leading and trailing characters for which str.isspace() holds.
std::string_view Strip(std::string_view utf8);

// repr(s).
std::string Repr(std::string_view utf8);

// b.decode('utf-8') (errors='strict'): nullopt when `bytes` is valid UTF-8,
// else str() of the UnicodeDecodeError CPython raises, e.g.
// "'utf-8' codec can't decode byte 0xff in position 3: invalid start byte".
// (python_text/codec.h)
using ::sbx::py::Utf8DecodeError;

// What text-mode subprocess output becomes: "\r\n" and then lone "\r" turn
// into "\n" (python_text's universal newlines).
inline std::string TranslateNewlines(std::string_view text) { return ::sbx::py::UniversalNewlines(text); }

// str(OSError(err, strerror(err), filename)): "[Errno 2] No such file or
// directory: 'x'", or without the filename part when there is none.
std::string OsErrorText(int err, std::optional<std::string_view> filename);

}  // namespace sbx::servers::terminal::py
