// Data and formula tools: server.py's apply_formula, validate_formula_syntax,
// read_data_from_excel, write_data_to_excel, validate_excel_range and
// get_data_validation_info, with validation.py, calculations.py, data.py
// and cell_validation.py behind them.
#include <functional>

#include "python_text/json_dumps.h"
#include "servers/excel/cell_python.h"
#include "servers/excel/py_error.h"
#include "servers/excel/tools.h"
#include "servers/excel/validations.h"

namespace sbx::servers::excel {
namespace {

// Largest range read_data_from_excel prints: each cell is ~200 bytes of
// JSON, and the reply must fit the agent's frame (upstream would try any
// size and run out of memory).
constexpr std::uint64_t kMaxReadCells = 100'000;

// Runs `body`, turning every PyError that is not already of class `cls`
// into one of class `cls` with the same text: upstream's
// `except Exception as e: raise Cls(str(e))`.
template <class Fn>
auto Rewrap(const char* cls, Fn body) {
  try {
    return body();
  } catch (const PyError& e) {
    if (e.cls() == cls) throw;
    throw PyError(cls, e.text());
  }
}

bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }

// validation.validate_formula: (ok, message).
std::pair<bool, std::string> ValidateFormula(const std::string& formula) {
  if (formula.empty() || formula[0] != '=') return {false, "Formula must start with '='"};
  std::string body = formula.substr(1);
  long parens = 0;
  for (char c : body) {
    if (c == '(') ++parens;
    else if (c == ')') --parens;
    if (parens < 0) return {false, "Unmatched closing parenthesis"};
  }
  if (parens > 0) return {false, "Unclosed parenthesis"};
  // ([A-Z]+)\( : maximal runs of capitals right before a parenthesis.
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '(' || i == 0 || !IsUpper(body[i - 1])) continue;
    std::size_t s = i;
    while (s > 0 && IsUpper(body[s - 1])) --s;
    std::string name = body.substr(s, i - s);
    if (name == "INDIRECT" || name == "HYPERLINK" || name == "WEBSERVICE" || name == "DGET" || name == "RTD")
      return {false, "Unsafe function: " + name};
  }
  return {true, "Formula is valid"};
}

// ws[key] for a key validate_cell_reference accepted (letters then
// digits): openpyxl 3.1's range_boundaries and _get_cell errors.
CellPos SheetIndex(const std::string& key) {
  auto pos = ParseCoordinate(key);
  if (!pos) throw PyError("ValueError", key + " is not a valid coordinate or range");
  if (pos->row < 1 || pos->row > kMaxRow)
    throw PyError("ValueError", "Row numbers must be between 1 and 1048576. Row number supplied was " +
                                    std::to_string(pos->row));
  return *pos;
}

std::function<bool(std::uint32_t)> DateStyles(const Workbook& wb) {
  return [&wb](std::uint32_t s) { return wb.IsDateStyle(s); };
}

// validate_formula_in_cell_operation: the message, or nullopt where
// upstream's function falls off its end and returns None (a formula equal
// to the cell's).
std::optional<std::string> ValidateFormulaInCell(const Context& ctx, const std::string& path, const std::string& sheet_name,
                                                 const std::string& cell, const std::string& formula) {
  return Rewrap("ValidationError", [&]() -> std::optional<std::string> {
    Workbook wb = LoadBook(ctx, path);
    Sheet* sheet = wb.Find(sheet_name);
    if (!sheet) throw PyError("ValidationError", "Sheet '" + sheet_name + "' not found");
    if (!ValidateCellReference(cell)) throw PyError("ValidationError", "Invalid cell reference: " + cell);
    auto [ok, message] = ValidateFormula(formula);
    if (!ok) throw PyError("ValidationError", "Invalid formula syntax: " + message);
    CellPos pos = SheetIndex(cell);
    const Cell* c = sheet->Find(pos.row, pos.col);
    bool text = c && (c->value.kind == CellValue::Kind::kString || c->value.kind == CellValue::Kind::kFormula);
    if (text && !c->value.s.empty() && c->value.s[0] == '=') {
      if (c->value.s != formula) return "Formula is valid but doesn't match cell content";
      return std::nullopt;
    }
    return "Formula is valid but cell contains no formula";
  });
}

}  // namespace

std::string ApplyFormula(const Context& ctx, const Json& args) {
  std::string path = FullPath(Str(args, "filepath"));
  std::string sheet_name = Str(args, "sheet_name"), cell = Str(args, "cell"), formula = Str(args, "formula");
  (void)ValidateFormulaInCell(ctx, path, sheet_name, cell, formula);
  // calculations.apply_formula
  return Rewrap("CalculationError", [&]() -> std::string {
    {
      if (!ValidateCellReference(cell)) throw PyError("ValidationError", "Invalid cell reference: " + cell);
      Workbook wb = LoadBook(ctx, path);
      Sheet* sheet = wb.Find(sheet_name);
      if (!sheet) throw PyError("ValidationError", "Sheet '" + sheet_name + "' not found");
      std::string f = formula.empty() || formula[0] != '=' ? "=" + formula : formula;
      auto [ok, message] = ValidateFormula(f);
      if (!ok) throw PyError("CalculationError", "Invalid formula syntax: " + message);
      try {
        CellPos pos = SheetIndex(cell);
        sheet->At(pos.row, pos.col).value = FromJsonValue(Json(f));
      } catch (const PyError& e) {
        throw PyError("CalculationError", "Failed to apply formula to cell: " + e.text());
      }
      try {
        SaveBook(ctx, wb, path);
      } catch (const PyError& e) {
        throw PyError("CalculationError", "Failed to save workbook after applying formula: " + e.text());
      }
      return "Applied formula '" + f + "' to cell " + cell;
    }
  });
}

std::string ValidateFormulaSyntax(const Context& ctx, const Json& args) {
  std::string path = FullPath(Str(args, "filepath"));
  auto message = ValidateFormulaInCell(ctx, path, Str(args, "sheet_name"), Str(args, "cell"), Str(args, "formula"));
  if (!message) throw PyError("TypeError", "'NoneType' object is not subscriptable");
  return *message;
}

std::string ReadDataFromExcel(const Context& ctx, const Json& args) {
  std::string path = FullPath(Str(args, "filepath"));
  std::string sheet_name = Str(args, "sheet_name");
  std::string start_cell = Str(args, "start_cell");
  std::string end_cell = OptStr(args, "end_cell");
  // data.read_excel_range_with_metadata
  py::Dict result = Rewrap("DataError", [&]() -> py::Dict {
    Workbook wb = LoadBook(ctx, path);
    Sheet* ws = wb.Find(sheet_name);
    if (!ws) throw PyError("DataError", "Sheet '" + sheet_name + "' not found");
    if (auto colon = start_cell.find(':'); colon != std::string::npos) {
      if (start_cell.find(':', colon + 1) != std::string::npos)
        throw PyError("ValueError", "too many values to unpack (expected 2)");
      end_cell = start_cell.substr(colon + 1);
      start_cell = start_cell.substr(0, colon);
    }
    auto start = ParseCellPrefix(start_cell + ":" + start_cell);
    if (!start) throw PyError("DataError", "Invalid start cell format: " + start.error().message);
    std::int64_t start_row = start->row, start_col = start->col, end_row, end_col;
    if (!end_cell.empty()) {
      auto end = ParseCellPrefix(end_cell + ":" + end_cell);
      if (!end) throw PyError("DataError", "Invalid end cell format: " + end.error().message);
      end_row = end->row, end_col = end->col;
    } else {
      const Cell* a1 = ws->Find(1, 1);
      if (ws->max_row() == 1 && ws->max_col() == 1 && (!a1 || a1->value.is_none())) {
        end_row = start_row, end_col = start_col;
      } else {
        end_row = ws->max_row(), end_col = ws->max_col();
        if (start_cell == "A1") start_row = ws->min_row(), start_col = ws->min_col();
      }
    }
    if (start_row > ws->max_row() || start_col > ws->max_col())
      return py::Dict{{"range", start_cell + ":"}, {"sheet_name", sheet_name}, {"cells", py::List{}}};
    if (end_row >= start_row && end_col >= start_col) {
      std::uint64_t area = static_cast<std::uint64_t>(end_row - start_row + 1) *
                           static_cast<std::uint64_t>(end_col - start_col + 1);
      if (area > kMaxReadCells)
        throw PyError("DataError", "Range too large: " + std::to_string(area) + " cells, more than the " +
                                       std::to_string(kMaxReadCells) + " one read returns; read it in parts");
    }
    auto rules = ReadValidations(*ws);
    auto dates = DateStyles(wb);
    py::List cells;
    for (std::int64_t r = start_row; r <= end_row; ++r)
      for (std::int64_t c = start_col; c <= end_col; ++c) {
        const Cell* cell = ws->Find(r, c);
        py::Dict d;
        d.push_back({"address", CellName({r, c})});
        d.push_back({"value", cell ? ToPython(cell->value, wb.IsDateStyle(cell->style)) : py::Value(py::None{})});
        d.push_back({"row", r});
        d.push_back({"column", c});
        auto v = ValidationForCell(rules, *ws, {r, c}, dates);
        d.push_back({"validation", v ? *v : py::Value(py::Dict{{"has_validation", false}})});
        cells.push_back(std::move(d));
      }
    std::string range = CellName({start_row, start_col}) + ":" + CellName({end_row, end_col});
    return py::Dict{{"range", range}, {"sheet_name", sheet_name}, {"cells", std::move(cells)}};
  });
  const auto& cells = std::get<py::List>(result[2].value.v);
  if (cells.empty()) return "No data found in specified range";
  return py::Dumps(py::Value(std::move(result)), {.indent = 2});
}

std::string WriteDataToExcel(const Context& ctx, const Json& args) {
  std::string path = FullPath(Str(args, "filepath"));
  std::string sheet_name = Str(args, "sheet_name");
  const Json& data = args.at("data");
  std::string start_cell = Str(args, "start_cell");
  // data.write_data
  return Rewrap("DataError", [&]() -> std::string {
    if (data.empty()) throw PyError("DataError", "No data provided to write");
    Workbook wb = LoadBook(ctx, path);
    if (sheet_name.empty()) {
      auto names = wb.SheetNames();
      if (names.empty()) throw PyError("DataError", "No active sheet found in workbook");
      sheet_name = wb.ActiveName();
    } else if (!wb.Find(sheet_name)) {
      if (auto e = TitleError(sheet_name)) throw PyError("ValueError", *e);
      wb.Create(sheet_name);
    }
    Sheet* ws = wb.Find(sheet_name);
    if (!ws) throw PyError("KeyError", "'Worksheet " + sheet_name + " does not exist.'");
    auto start = ParseCellPrefix(start_cell);
    if (!start) throw PyError("DataError", "Invalid start cell format: " + start.error().message);
    std::uint64_t budget = ctx.options.max_cells > wb.CellCount() ? ctx.options.max_cells - wb.CellCount() : 0;
    for (std::size_t i = 0; i < data.size(); ++i) {
      const Json& row = data[i];
      for (std::size_t j = 0; j < row.size(); ++j) {
        std::int64_t r = start->row + static_cast<std::int64_t>(i), c = start->col + static_cast<std::int64_t>(j);
        if (r < 1 || r > kMaxRow)
          throw PyError("ValueError", "Row numbers must be between 1 and 1048576. Row number supplied was " +
                                          std::to_string(r));
        if (c > kMaxColumn) throw PyError("ValueError", "Invalid column index " + std::to_string(c));
        CellValue v = FromJsonValue(row[j]);
        if (!ws->Find(r, c)) {
          if (budget == 0)
            throw PyError("DataError", "Too many cells: the workbook would hold more than this deployment's limit of " +
                                           std::to_string(ctx.options.max_cells));
          --budget;
        }
        Cell& cell = ws->At(r, c);
        if (!row[j].is_null()) cell.value = std::move(v);
      }
    }
    SaveBook(ctx, wb, path);
    return "Data written to " + sheet_name;
  });
}

std::string ValidateExcelRange(const Context& ctx, const Json& args) {
  std::string path = FullPath(Str(args, "filepath"));
  std::string sheet_name = Str(args, "sheet_name");
  std::string start_cell = Str(args, "start_cell"), end_cell = OptStr(args, "end_cell");
  std::string range_str = end_cell.empty() ? start_cell : start_cell + ":" + end_cell;
  // validation.validate_range_in_sheet_operation(path, sheet, range_str)
  return Rewrap("ValidationError", [&]() -> std::string {
    Workbook wb = LoadBook(ctx, path);
    Sheet* ws = wb.Find(sheet_name);
    if (!ws) throw PyError("ValidationError", "Sheet '" + sheet_name + "' not found");
    std::int64_t max_row = ws->max_row(), max_col = ws->max_col();
    auto start = ParseCellPrefix(range_str);
    if (!start) throw PyError("ValidationError", "Invalid range: " + start.error().message);
    if (start->row < 1 || start->row > max_row)
      throw PyError("ValidationError",
                    "Start row " + std::to_string(start->row) + " out of bounds (1-" + std::to_string(max_row) + ")");
    if (start->col < 1 || start->col > max_col)
      throw PyError("ValidationError", "Start column " + ColumnLetter(start->col) + " out of bounds (A-" +
                                           ColumnLetter(max_col) + ")");
    return "Range '" + range_str + "' is valid. Sheet contains data in range 'A1:" + ColumnLetter(max_col) +
           std::to_string(max_row) + "'";
  });
}

std::string GetDataValidationInfo(const Context& ctx, const Json& args) {
  std::string path = FullPath(Str(args, "filepath"));
  std::string sheet_name = Str(args, "sheet_name");
  Workbook wb = LoadBook(ctx, path);
  Sheet* ws = wb.Find(sheet_name);
  if (!ws) return "Error: Sheet '" + sheet_name + "' not found";
  auto rules = ReadValidations(*ws);
  py::List all = AllValidationRanges(rules, *ws, DateStyles(wb));
  if (all.empty()) return "No data validation rules found in this worksheet";
  return py::Dumps(py::Value(py::Dict{{"sheet_name", sheet_name}, {"validation_rules", std::move(all)}}), {.indent = 2});
}

}  // namespace sbx::servers::excel
