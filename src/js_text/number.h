// JavaScript's numbers as text and back: Number::toString (shortest
// round-trip digits, plain between 1e-7 and 1e21, "-0" as "0"),
// Number.prototype.toFixed, the StringToNumber of Number("…") and
// Math.round.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

namespace sbx::js {

// Number.prototype.toString() / String(n): "1", "0.5", "1e+21", "1e-7",
// "NaN", "-Infinity".
std::string NumberToString(double value);

// Number.prototype.toFixed for finite values below 1e21: the exact binary
// value rounded half away from zero (printf rounds half to even); a
// negative value keeps its sign even when it rounds to zero ("-0.00").
std::string ToFixed(double value, int digits);

// Number(string): trimmed, "" is 0, 0x/0o/0b literals, "Infinity" with a
// sign, decimal literals; anything else NaN.
double StringToNumber(std::string_view text);

// Math.round: halves round toward +Infinity.
double MathRound(double value);

}  // namespace sbx::js
