// repr() of Python's scalar types as CPython 3.13 writes it: str (quote
// choice, escapes, Unicode printability), float (shortest round-trip digits
// and its switch to exponent form) and int. Strings are UTF-8, with lone
// surrogates in their WTF-8 form (core/utf8.h).
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace sbx::py {

// repr() of the str made of `code_points`: quotes chosen as CPython does,
// \n \r \t \\ and the quote escaped, other non-printable characters as
// \xNN / \uNNNN / \UNNNNNNNN (printable per Unicode general category).
std::string ReprCodePoints(std::u32string_view code_points);

// repr() of a str whose UTF-8 is `text`; a WTF-8 surrogate is that
// surrogate, other invalid bytes are read as bytes.decode("utf-8",
// "replace") reads them (one U+FFFD each).
std::string Repr(std::string_view text);

// CPython's Py_UNICODE_ISPRINTABLE: everything but the "Other" and
// "Separator" categories, except the ASCII space.
bool IsPrintable(char32_t code_point);

// CPython's Py_UNICODE_ISSPACE: str.isspace() of one character, what
// str.split() and str.strip() take as white space (bidirectional classes
// WS, B, S and category Zs).
bool IsSpace(char32_t code_point);

// repr(float) (== str(float)): "3.0", "0.1", "1e+16", "1e-05", "-0.0",
// "inf", "nan", "5e-324".
std::string FloatRepr(double value);

// repr(int) of a value that fits 64 bits with its sign: `negative` and the
// magnitude (so -2**64+1 .. 2**64-1).
std::string IntRepr(bool negative, std::uint64_t magnitude);

}  // namespace sbx::py
