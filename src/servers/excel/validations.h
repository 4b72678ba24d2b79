// The two views upstream's cell_validation.py prints of a sheet's data
// validation rules (validation_rules.h).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "python_text/value.h"
#include "servers/excel/sheet.h"
#include "servers/excel/validation_rules.h"

namespace sbx::servers::excel {

// get_data_validation_for_cell: the metadata dict of the first rule that
// covers the cell, or nullopt. `date_style` tells ToPython which styles
// read as dates (for list values taken from cells).
std::optional<py::Value> ValidationForCell(const std::vector<DataValidation>& rules, const Sheet& sheet,
                                           CellPos pos, const std::function<bool(std::uint32_t)>& date_style);

// get_all_validation_ranges.
py::List AllValidationRanges(const std::vector<DataValidation>& rules, const Sheet& sheet,
                             const std::function<bool(std::uint32_t)>& date_style);

}  // namespace sbx::servers::excel
