// CPython's codecs where their results reach a server's text: what
// bytes.decode(...) gives with errors="replace", the messages of the
// UnicodeDecodeError / UnicodeEncodeError it raises, and the universal
// newlines of text-mode reading. Strings are UTF-8 (WTF-8 for a str that
// holds lone surrogates, see core/utf8.h); the reference is CPython 3.13.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace sbx::py {

// bytes.decode("utf-8", "replace"): one U+FFFD per invalid sequence, with
// CPython's notion of where each invalid sequence ends.
std::string DecodeUtf8Replace(std::string_view bytes);

// bytes.decode(encoding, "replace") for the encodings git commit headers
// and the like name (utf-8 and its aliases, latin-1/iso-8859-1, ascii);
// others are read as UTF-8.
std::string DecodeReplace(std::string_view bytes, std::string_view encoding);

// The message of the UnicodeDecodeError bytes.decode("utf-8") raises, e.g.
// "'utf-8' codec can't decode byte 0xe9 in position 3: invalid continuation
// byte"; nullopt when `bytes` is valid UTF-8.
std::optional<std::string> Utf8DecodeError(std::string_view bytes);

// The same for bytes.decode("ascii"): "'ascii' codec can't decode byte 0xe9
// in position 3: ordinal not in range(128)".
std::optional<std::string> AsciiDecodeError(std::string_view bytes);

// The message of the UnicodeEncodeError str.encode("utf-8") raises for a
// str (WTF-8) holding a lone surrogate: "'utf-8' codec can't encode
// character '\udc80' in position 3: surrogates not allowed" (positions in
// code points; a run of surrogates is reported as "characters in position
// 3-4"); nullopt when there is none.
std::optional<std::string> Utf8EncodeError(std::string_view wtf8);

// Universal newlines (open() in text mode, subprocess text=True): "\r\n"
// and then lone "\r" become "\n".
std::string UniversalNewlines(std::string_view text);

}  // namespace sbx::py
