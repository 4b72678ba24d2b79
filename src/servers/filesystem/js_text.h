// JavaScript string semantics on UTF-8 text, where the upstream server's
// observable output depends on them: how Node decodes bytes into a string,
// what String.prototype.trim() calls whitespace, what .length counts (UTF-16
// code units), Number.prototype.toFixed rounding, JSON.stringify quoting and
// Date.prototype.toString. Pure functions, thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace sbx::servers::filesystem {

// Bytes to valid UTF-8 the way Node's Buffer#toString('utf-8') does (WHATWG
// decoder: each maximal invalid subpart becomes one U+FFFD). A byte order
// mark is kept.
std::string DecodeUtf8Lossy(std::string_view bytes);

// UTF-8 <-> UTF-16 (input must be valid UTF-8 / well-formed UTF-16 except
// that lone surrogates are encoded as U+FFFD when going back to UTF-8).
std::u16string Utf8ToUtf16(std::string_view utf8);
std::string Utf16ToUtf8(std::u16string_view utf16);

// JavaScript .length of the UTF-8 string (code units of its UTF-16 form).
std::size_t Utf16Length(std::string_view utf8);

// The code points String.prototype.trim() and /\s/ treat as white space
// (WhiteSpace + LineTerminator of ECMA-262).
bool IsJsWhitespace(char32_t c);
// The leading run of JS white space of `s` (what /^\s*/ matches).
std::string_view LeadingJsWhitespace(std::string_view s);
std::string_view JsTrimStart(std::string_view s);
std::string_view JsTrim(std::string_view s);

// String.prototype.padEnd / padStart with spaces, counting UTF-16 units.
std::string PadEnd(std::string s, std::size_t width);
std::string PadStart(std::string s, std::size_t width);

// Number.prototype.toFixed for finite values below 1e21: the exact binary
// value rounded half away from zero (printf rounds half to even).
std::string ToFixed(double value, int digits);

// JSON.stringify of one string (quotes included; non-ASCII kept as is):
// core/json_text's AppendJsonString, as a value.
std::string JsonQuote(std::string_view utf8);

// Date.prototype.toString() of a time in whole seconds since the epoch, in
// the process's time zone: "Sun Nov 22 2026 00:55:54 GMT+0000 (Coordinated
// Universal Time)".
std::string JsDateString(std::int64_t seconds);

}  // namespace sbx::servers::filesystem
