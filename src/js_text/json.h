// JSON.stringify as V8 writes it, and the JavaScript conversions of JSON
// values that template literals and comparisons apply (`${v}`, Number(v),
// if (v)). Strings are UTF-8; a lone surrogate (WTF-8, core/utf8.h) is
// written as \udXXX, as V8's well-formed JSON.stringify does.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "core/json.h"

namespace sbx::js {

// JSON.stringify(value, null, indent): indent 0 is compact, more than 10
// counts as 10. Non-finite numbers are written as null; non-ASCII text is
// kept as is; control characters as \b \f \n \r \t or \u00XX.
std::string Stringify(const Json& value, int indent = 0);

// JSON.stringify of one string (quotes included).
std::string JsonQuote(std::string_view utf8);
void AppendJsonQuoted(std::string& out, std::string_view utf8);

// `${value}`: strings as is, numbers as NumberToString, arrays joined with
// "," (null elements empty), objects "[object Object]".
std::string ToString(const Json& value);

// Number(value): strings by StringToNumber, arrays through their string
// form, objects NaN, null 0, booleans 0/1.
double ToNumber(const Json& value);

// Boolean(value): JavaScript truthiness.
bool ToBoolean(const Json& value);

}  // namespace sbx::js
