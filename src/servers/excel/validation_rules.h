// Data validation rules of a worksheet as openpyxl reads them
// (<dataValidations> of the part; the x14 ones inside extLst are dropped
// by openpyxl and ignored here).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "servers/excel/sheet.h"

namespace sbx::servers::excel {

struct DataValidation {
  std::optional<std::string> type, op, prompt, prompt_title, error, error_title, formula1, formula2;
  bool allow_blank = false;
  std::vector<Bounds> ranges;  // sqref, as openpyxl 3.1's MultiCellRange holds it
};

std::vector<DataValidation> ReadValidations(const Sheet& sheet);

// str(dv.sqref): the ranges sorted by (min_col, min_row, max_col, max_row),
// joined by spaces.
std::string SqrefText(const DataValidation& dv);

}  // namespace sbx::servers::excel
