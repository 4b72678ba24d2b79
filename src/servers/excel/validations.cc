#include "servers/excel/validations.h"

#include <algorithm>
#include <functional>
#include <set>
#include <tuple>

#include "ooxml/xml.h"
#include "servers/excel/cell_python.h"

namespace sbx::servers::excel {
namespace {

bool Truthy(const std::optional<std::string>& s) { return s && !s->empty(); }

std::string StripQuotes(std::string s) {
  std::size_t b = s.find_first_not_of('"');
  if (b == std::string::npos) return "";
  std::size_t e = s.find_last_not_of('"');
  return s.substr(b, e - b + 1);
}

// Python's str.strip(): whitespace at both ends.
std::string StripSpace(const std::string& s) {
  const char* ws = " \t\n\r\x0b\x0c";
  std::size_t b = s.find_first_not_of(ws);
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(ws) - b + 1);
}

// _extract_list_values.
py::List ListValues(const std::string& formula_in, const Sheet& sheet,
                    const std::function<bool(std::uint32_t)>& date_style) {
  std::string formula = StripQuotes(formula_in);
  py::List out;
  if (formula.find(',') != std::string::npos) {
    std::size_t start = 0;
    while (true) {
      std::size_t comma = formula.find(',', start);
      std::string part = StripQuotes(StripSpace(formula.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
      if (!part.empty()) out.push_back(part);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    return out;
  }
  if (formula.find(':') != std::string::npos || (!formula.empty() && formula[0] == '$')) {
    std::string ref = !formula.empty() && formula[0] == '=' ? formula.substr(1) : formula;
    auto b = RangeBoundaries(ref);
    // ws[ref] with a sheet prefix or whole rows/columns: not resolved here.
    if (!b || !b->min_row || !b->min_col) return {py::Value("Range: " + formula + " (resolution error)")};
    for (std::int64_t r = b->min_row; r <= b->max_row; ++r)
      for (std::int64_t c = b->min_col; c <= b->max_col; ++c)
        if (const Cell* cell = sheet.Find(r, c); cell && !cell->value.is_none())
          out.push_back(py::Str(ToPython(cell->value, date_style(cell->style))));
    if (out.empty()) out.push_back("Range: " + formula + " (empty or unresolvable)");
    return out;
  }
  return {py::Value(StripQuotes(formula))};
}

py::Value OptionalText(const std::optional<std::string>& s) { return s ? py::Value(*s) : py::Value(py::None{}); }

}  // namespace

std::optional<py::Value> ValidationForCell(const std::vector<DataValidation>& rules, const Sheet& sheet, CellPos pos,
                                           const std::function<bool(std::uint32_t)>& date_style) {
  for (const auto& dv : rules) {
    bool inside = std::any_of(dv.ranges.begin(), dv.ranges.end(), [&](const Bounds& b) {
      return b.min_row <= pos.row && pos.row <= b.max_row && b.min_col <= pos.col && pos.col <= b.max_col;
    });
    if (!inside) continue;
    py::Dict d;
    d.push_back({"cell", CellName(pos)});
    d.push_back({"has_validation", true});
    d.push_back({"validation_type", OptionalText(dv.type)});
    d.push_back({"allow_blank", dv.allow_blank});
    if (Truthy(dv.op)) d.push_back({"operator", *dv.op});
    if (Truthy(dv.prompt)) d.push_back({"prompt", *dv.prompt});
    if (Truthy(dv.prompt_title)) d.push_back({"prompt_title", *dv.prompt_title});
    if (Truthy(dv.error)) d.push_back({"error_message", *dv.error});
    if (Truthy(dv.error_title)) d.push_back({"error_title", *dv.error_title});
    if (dv.type == "list" && Truthy(dv.formula1)) {
      d.push_back({"allowed_values", ListValues(*dv.formula1, sheet, date_style)});
    } else if (Truthy(dv.formula1)) {
      d.push_back({"formula1", *dv.formula1});
      if (Truthy(dv.formula2)) d.push_back({"formula2", *dv.formula2});
    }
    return py::Value(std::move(d));
  }
  return std::nullopt;
}

py::List AllValidationRanges(const std::vector<DataValidation>& rules, const Sheet& sheet,
                             const std::function<bool(std::uint32_t)>& date_style) {
  py::List out;
  for (const auto& dv : rules) {
    py::Dict d;
    d.push_back({"ranges", SqrefText(dv)});
    d.push_back({"validation_type", OptionalText(dv.type)});
    d.push_back({"allow_blank", dv.allow_blank});
    if (dv.type == "list" && Truthy(dv.formula1))
      d.push_back({"allowed_values", ListValues(*dv.formula1, sheet, date_style)});
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace sbx::servers::excel
