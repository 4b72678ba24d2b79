// Cell values and Python values: what openpyxl's cell setter makes of a
// JSON value, and what a cell's value is to Python (for json.dumps and
// str()). Kept apart from the workbook model so the model builds without
// the Python text library (the fuzz target links the model alone).
#pragma once

#include "core/json.h"
#include "python_text/value.h"
#include "servers/excel/cell_value.h"

namespace sbx::servers::excel {

// openpyxl's Cell.value setter (_bind_value + check_string) for a value
// that came as JSON: null, bool, int, float, str; str is cut at 32,767
// characters, "=..." (longer than "=") becomes a formula and the seven
// error codes become errors. Arrays and objects throw
// PyError("ValueError", "Cannot convert [1, 2] to Excel"); control
// characters other than tab, LF and CR throw openpyxl 3.1's
// IllegalCharacterError text.
CellValue FromJsonValue(const Json& value);

// The Python value of a cell (what json.dumps(default=str) and str() see).
// `date_format`: the cell's style has a date number format, so a number
// reads as a datetime (openpyxl's from_excel, 1900 epoch).
py::Value ToPython(const CellValue& value, bool date_format);

}  // namespace sbx::servers::excel
