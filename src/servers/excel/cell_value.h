// A cell's value as openpyxl holds it after load_workbook (not data_only):
// None, int, float, str, bool, a formula ("=..." text), an error code
// ("#N/A"), or a date/datetime read from a number with a date format.
// Numbers keep their kind: "5" in the file is int 5, "5.5" float.
#pragma once

#include <cstdint>
#include <string>
#include <variant>


namespace sbx::servers::excel {

struct CellValue {
  enum class Kind { kNone, kInt, kFloat, kString, kBool, kFormula, kError };
  Kind kind = Kind::kNone;
  std::int64_t i = 0;
  double f = 0;
  bool b = false;
  std::string s;  // string, formula ("=A1+1") or error code text

  static CellValue None() { return {}; }
  static CellValue Int(std::int64_t v) { return {Kind::kInt, v, 0, false, {}}; }
  static CellValue Float(double v) { return {Kind::kFloat, 0, v, false, {}}; }
  static CellValue Bool(bool v) { return {Kind::kBool, 0, 0, v, {}}; }
  static CellValue String(std::string v) { return {Kind::kString, 0, 0, false, std::move(v)}; }
  static CellValue Formula(std::string v) { return {Kind::kFormula, 0, 0, false, std::move(v)}; }
  static CellValue ErrorCode(std::string v) { return {Kind::kError, 0, 0, false, std::move(v)}; }

  bool is_none() const { return kind == Kind::kNone; }
  bool is_number() const { return kind == Kind::kInt || kind == Kind::kFloat; }
  double number() const { return kind == Kind::kInt ? static_cast<double>(i) : f; }
  bool operator==(const CellValue&) const = default;
};

// "%.16g", openpyxl's safe_string for the <v> of a number.
std::string NumberText(double value);

}  // namespace sbx::servers::excel
