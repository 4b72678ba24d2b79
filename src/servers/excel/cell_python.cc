#include "servers/excel/cell_python.h"

#include <cmath>
#include <cstdio>

#include "core/civil_date.h"
#include "core/utf8.h"
#include "python_text/datetime.h"
#include "servers/excel/py_error.h"

namespace sbx::servers::excel {
namespace {

constexpr std::size_t kMaxStringChars = 32767;  // openpyxl's check_string cut

bool IsErrorCode(const std::string& s) {
  return s == "#NULL!" || s == "#DIV/0!" || s == "#VALUE!" || s == "#REF!" || s == "#NAME?" || s == "#NUM!" ||
         s == "#N/A";
}

// The first 32,767 code points (Python slices by code point).
std::string CutString(const std::string& s) {
  std::size_t i = 0, count = 0;
  while (i < s.size() && count < kMaxStringChars) {
    (void)utf8::Next(s, i, utf8::Surrogates::kAllow);
    ++count;
  }
  return s.substr(0, i);
}

// openpyxl's ILLEGAL_CHARACTERS_RE: [\000-\010] [\013-\014] [\016-\037].
bool HasIllegalCharacter(const std::string& s) {
  for (unsigned char c : s)
    if (c <= 0x08 || c == 0x0B || c == 0x0C || (c >= 0x0E && c <= 0x1F)) return true;
  return false;
}

// An Excel serial as Python's datetime text (str(datetime), str(time)),
// following openpyxl 3.1's from_excel with the 1900 epoch: fractions
// rounded to the millisecond, serials 1..60 shifted for Excel's phantom
// 1900-02-29, values in [0, 1) as a time of day.
std::string SerialText(double value) {
  if (!std::isfinite(value) || value < 0 || value > 2958466) return NumberText(value);
  double day = std::floor(value);
  auto millis = static_cast<std::int64_t>(std::llround((value - day) * 86400.0 * 1000.0));
  auto days = static_cast<std::int64_t>(day);
  if (millis >= 86400000) days += millis / 86400000, millis %= 86400000;
  char time[32];
  int h = static_cast<int>(millis / 3600000), m = static_cast<int>(millis / 60000 % 60),
      s = static_cast<int>(millis / 1000 % 60), us = static_cast<int>(millis % 1000) * 1000;
  if (us)
    std::snprintf(time, sizeof time, "%02d:%02d:%02d.%06d", h, m, s, us);
  else
    std::snprintf(time, sizeof time, "%02d:%02d:%02d", h, m, s);
  if (value < 1) return time;
  if (value > 1 && value < 60) days += 1;
  // 1899-12-30 is day -25569 from 1970-01-01.
  civil::Date d = civil::FromDays(days - 25569);
  char date[32];
  std::snprintf(date, sizeof date, "%04lld-%02u-%02u ", static_cast<long long>(d.year), d.month, d.day);
  return std::string(date) + time;
}

}  // namespace


CellValue FromJsonValue(const Json& value) {
  if (value.is_null()) return CellValue::None();
  if (value.is_boolean()) return CellValue::Bool(value.get<bool>());
  if (value.is_number_integer()) {
    // JSON integers beyond 64 bits arrive as floats from the parser; an
    // unsigned one past int64 is kept as the float Python would print.
    if (value.is_number_unsigned() && value.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
      return CellValue::Float(static_cast<double>(value.get<std::uint64_t>()));
    return CellValue::Int(value.get<std::int64_t>());
  }
  if (value.is_number_float()) return CellValue::Float(value.get<double>());
  if (value.is_string()) {
    std::string s = CutString(value.get<std::string>());
    if (HasIllegalCharacter(s)) throw PyError("IllegalCharacterError", s + " cannot be used in worksheets.");
    if (s.size() > 1 && s[0] == '=') return CellValue::Formula(std::move(s));
    if (IsErrorCode(s)) return CellValue::ErrorCode(std::move(s));
    return CellValue::String(std::move(s));
  }
  throw PyError("ValueError", "Cannot convert " + py::Repr(py::FromJson(value)) + " to Excel");
}

py::Value ToPython(const CellValue& value, bool date_format) {
  switch (value.kind) {
    case CellValue::Kind::kNone: return py::None{};
    case CellValue::Kind::kInt:
      if (date_format) return SerialText(static_cast<double>(value.i));
      return value.i;
    case CellValue::Kind::kFloat:
      if (date_format) return SerialText(value.f);
      return value.f;
    case CellValue::Kind::kBool: return value.b;
    case CellValue::Kind::kString:
    case CellValue::Kind::kFormula:
    case CellValue::Kind::kError: return value.s;
  }
  return py::None{};
}

}  // namespace sbx::servers::excel
