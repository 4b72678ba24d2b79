// The JavaScript conversions upstream's result texts go through: numbers
// and values interpolated into template literals, JSON.stringify with an
// indent, ToNumber of configuration values compared with line counts,
// Math.round, Date#toISOString and URLSearchParams encoding. Pure functions,
// thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/json.h"

namespace sbx::servers::desktop_commander {

// Number.prototype.toString(): "1", "0.5", "1e+21", "NaN", "-Infinity".
std::string JsNumber(double value);

// `${value}` of a JSON value: strings as is, numbers as JsNumber, arrays
// joined with "," (null elements empty), objects "[object Object]".
std::string JsString(const Json& value);

// ToNumber of a JSON value (strings by StringToNumber, arrays through their
// string form, objects NaN, null 0, booleans 0/1).
double JsToNumber(const Json& value);

// JavaScript truthiness of a JSON value.
bool JsTruthy(const Json& value);

// JSON.stringify(value, null, indent) (indent 0: compact).
std::string JsStringify(const Json& value, int indent = 2);

// Math.round: halves round toward +Infinity.
double JsRound(double value);

// new Date(ms).toISOString(): "2025-01-02T03:04:05.678Z".
std::string JsIsoDate(std::int64_t epoch_ms);

// URLSearchParams serialisation of one name or value
// (application/x-www-form-urlencoded: space as '+').
std::string FormUrlEncode(std::string_view utf8);

// String.prototype.toLowerCase (Unicode default case mapping).
std::string JsLowerCase(std::string_view utf8);

// Milliseconds since the epoch, as Date.now().
std::int64_t NowMs();

}  // namespace sbx::servers::desktop_commander
