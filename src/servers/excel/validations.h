// Data validation rules of a worksheet as openpyxl reads them
// (<dataValidations> of the part; the x14 ones inside extLst are dropped
// by openpyxl and ignored here), and the two views upstream's
// cell_validation.py prints of them.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "python_text/value.h"
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

// get_data_validation_for_cell: the metadata dict of the first rule that
// covers the cell, or nullopt. `date_style` tells ToPython which styles
// read as dates (for list values taken from cells).
std::optional<py::Value> ValidationForCell(const std::vector<DataValidation>& rules, const Sheet& sheet,
                                           CellPos pos, const std::function<bool(std::uint32_t)>& date_style);

// get_all_validation_ranges.
py::List AllValidationRanges(const std::vector<DataValidation>& rules, const Sheet& sheet,
                             const std::function<bool(std::uint32_t)>& date_style);

}  // namespace sbx::servers::excel
