// Workbook, sheet and range tools: server.py's create_workbook,
// create_worksheet, copy/delete/rename_worksheet, get_workbook_metadata,
// merge/unmerge/get_merged_cells, copy_range, delete_range and the row and
// column tools, with workbook.py and sheet.py behind them.
#include "python_text/repr.h"
#include "servers/excel/cell_python.h"
#include "servers/excel/py_error.h"
#include "servers/excel/tools.h"

namespace sbx::servers::excel {
namespace {

template <class Fn>
auto Rewrap(const char* cls, Fn body) {
  try {
    return body();
  } catch (const PyError& e) {
    if (e.cls() == cls) throw;
    throw PyError(cls, e.text());
  }
}

Sheet& SheetOr(Workbook& wb, const std::string& name, const char* cls) {
  Sheet* s = wb.Find(name);
  if (!s) throw PyError(cls, "Sheet '" + name + "' not found");
  return *s;
}

void CheckTitleOrThrow(const std::string& title) {
  if (auto e = TitleError(title)) throw PyError("ValueError", *e);
}

// What openpyxl's save would refuse or Excel could not open: a cell pushed
// past the last column (get_column_letter's ValueError at save) or row.
void CheckExtent(const Sheet& ws) {
  if (ws.cells().empty()) return;
  if (ws.max_col() > kMaxColumn) throw PyError("ValueError", "Invalid column index " + std::to_string(ws.max_col()));
  if (ws.max_row() > kMaxRow)
    throw PyError("ValueError", "Row numbers must be between 1 and 1048576. Row number supplied was " +
                                    std::to_string(ws.max_row()));
}

[[noreturn]] void TooManyCells(const Context& ctx) {
  throw PyError("SheetError", "Too many cells: the sheet would hold more than this deployment's limit of " +
                                  std::to_string(ctx.options.max_cells));
}

// sheet.format_range_string.
std::string RangeString(std::int64_t r1, std::int64_t c1, std::int64_t r2, std::int64_t c2) {
  return CellName({r1, c1}) + ":" + CellName({r2, c2});
}

// The cells of a merge other than its first, as openpyxl's
// _clean_merge_range creates them (empty MergedCells).
void CleanMerge(const Context& ctx, Sheet& ws, const Bounds& b) {
  std::uint64_t area = static_cast<std::uint64_t>(b.max_row - b.min_row + 1) * static_cast<std::uint64_t>(b.max_col - b.min_col + 1);
  if (area > ctx.options.max_cells) TooManyCells(ctx);
  for (std::int64_t r = b.min_row; r <= b.max_row; ++r)
    for (std::int64_t c = b.min_col; c <= b.max_col; ++c)
      if (r != b.min_row || c != b.min_col) ws.At(r, c).value = CellValue::None();
  if (ws.cells().size() > ctx.options.max_cells) TooManyCells(ctx);
}

// sheet.merge_range / unmerge_range's shared start: (bounds, range text).
std::pair<Bounds, std::string> MergeBounds(const std::string& start_cell, const std::string& end_cell, const char* what) {
  auto parsed = ParseCellRange(start_cell, end_cell);
  if (!parsed) throw PyError("ValueError", parsed.error().message);
  if (!parsed->end) throw PyError("SheetError", std::string("Both start and end cells must be specified for ") + what);
  Bounds b{parsed->start.col, parsed->start.row, parsed->end->col, parsed->end->row};
  return {b, RangeString(b.min_row, b.min_col, b.max_row, b.max_col)};
}

}  // namespace

std::string CreateWorkbook(const Context& ctx, const Json& args) {
  std::string path = FullPath(Str(args, "filepath"));
  try {
    Workbook wb = Workbook::New();
    wb.Rename("Sheet", "Sheet1");
    SaveBook(ctx, wb, path, /*make_parents=*/true);
  } catch (const PyError& e) {
    throw PyError("WorkbookError", "Failed to create workbook: " + e.text());
  }
  return "Created workbook at " + path;
}

std::string CreateWorksheet(const Context& ctx, const Json& args) {
  std::string path = FullPath(Str(args, "filepath"));
  std::string name = Str(args, "sheet_name");
  return Rewrap("WorkbookError", [&] {
    Workbook wb = LoadBook(ctx, path);
    if (wb.Find(name)) throw PyError("WorkbookError", "Sheet " + name + " already exists");
    if (!name.empty()) CheckTitleOrThrow(name);
    wb.Create(name.empty() ? "Sheet" : name);
    SaveBook(ctx, wb, path);
    return "Sheet " + name + " created successfully";
  });
}

std::string CopyWorksheet(const Context& ctx, const Json& args) {
  std::string path = FullPath(Str(args, "filepath"));
  std::string source = Str(args, "source_sheet"), target = Str(args, "target_sheet");
  return Rewrap("SheetError", [&] {
    Workbook wb = LoadBook(ctx, path);
    if (!wb.Find(source)) throw PyError("SheetError", "Source sheet '" + source + "' not found");
    if (wb.Find(target)) throw PyError("SheetError", "Target sheet '" + target + "' already exists");
    CheckTitleOrThrow(target);
    wb.Copy(source, target);
    SaveBook(ctx, wb, path);
    return "Sheet '" + source + "' copied to '" + target + "'";
  });
}

std::string DeleteWorksheet(const Context& ctx, const Json& args) {
  std::string path = FullPath(Str(args, "filepath"));
  std::string name = Str(args, "sheet_name");
  return Rewrap("SheetError", [&] {
    Workbook wb = LoadBook(ctx, path);
    if (!wb.Find(name)) throw PyError("SheetError", "Sheet '" + name + "' not found");
    if (wb.SheetNames().size() == 1) throw PyError("SheetError", "Cannot delete the only sheet in workbook");
    wb.Remove(name);
    SaveBook(ctx, wb, path);
    return "Sheet '" + name + "' deleted";
  });
}

std::string RenameWorksheet(const Context& ctx, const Json& args) {
  std::string path = FullPath(Str(args, "filepath"));
  std::string old_name = Str(args, "old_name"), new_name = Str(args, "new_name");
  return Rewrap("SheetError", [&] {
    Workbook wb = LoadBook(ctx, path);
    if (!wb.Find(old_name)) throw PyError("SheetError", "Sheet '" + old_name + "' not found");
    if (wb.Find(new_name)) throw PyError("SheetError", "Sheet '" + new_name + "' already exists");
    CheckTitleOrThrow(new_name);
    wb.Rename(old_name, new_name);
    SaveBook(ctx, wb, path);
    return "Sheet renamed from '" + old_name + "' to '" + new_name + "'";
  });
}

std::string GetWorkbookMetadata(const Context& ctx, const Json& args) {
  std::string path = FullPath(Str(args, "filepath"));
  bool include_ranges = Bool(args, "include_ranges");
  py::Dict info = Rewrap("WorkbookError", [&] {
    FileInfo file = StatPath(ctx, path);
    if (!file.exists) throw PyError("WorkbookError", "File not found: " + path);
    Workbook wb = LoadBook(ctx, path);
    std::size_t slash = path.rfind('/');
    std::string name = path.substr(slash + 1);
    py::List sheets;
    for (const auto& n : wb.SheetNames()) sheets.push_back(n);
    py::Dict d{{"filename", name}, {"sheets", std::move(sheets)},
               {"size", static_cast<std::int64_t>(file.size)}, {"modified", file.mtime}};
    if (include_ranges) {
      py::Dict ranges;
      for (const auto& n : wb.SheetNames()) {
        Sheet* ws = wb.Find(n);
        ranges.push_back({n, "A1:" + ColumnLetter(ws->max_col()) + std::to_string(ws->max_row())});
      }
      d.push_back({"used_ranges", std::move(ranges)});
    }
    return d;
  });
  return py::Str(py::Value(std::move(info)));
}

std::string MergeCells(const Context& ctx, const Json& args) {
  std::string path = FullPath(Str(args, "filepath"));
  std::string name = Str(args, "sheet_name");
  return Rewrap("SheetError", [&] {
    Workbook wb = LoadBook(ctx, path);
    Sheet& ws = SheetOr(wb, name, "SheetError");
    auto [b, text] = MergeBounds(Str(args, "start_cell"), Str(args, "end_cell"), "merging");
    if (b.min_col > b.max_col)
      throw PyError("ValueError", std::to_string(b.max_col) + " must be greater than " + std::to_string(b.min_col));
    if (b.min_row > b.max_row)
      throw PyError("ValueError", std::to_string(b.max_row) + " must be greater than " + std::to_string(b.min_row));
    // MultiCellRange.add: kept unless an existing range holds it already.
    bool held = false;
    for (const auto& m : ws.merges())
      held = held || (m.min_row <= b.min_row && b.max_row <= m.max_row && m.min_col <= b.min_col && b.max_col <= m.max_col);
    if (!held) ws.merges().push_back(b);
    CleanMerge(ctx, ws, b);
    SaveBook(ctx, wb, path);
    return "Range '" + text + "' merged in sheet '" + name + "'";
  });
}

std::string UnmergeCells(const Context& ctx, const Json& args) {
  std::string path = FullPath(Str(args, "filepath"));
  std::string name = Str(args, "sheet_name");
  return Rewrap("SheetError", [&] {
    Workbook wb = LoadBook(ctx, path);
    Sheet& ws = SheetOr(wb, name, "SheetError");
    auto [b, text] = MergeBounds(Str(args, "start_cell"), Str(args, "end_cell"), "unmerging");
    auto& merges = ws.merges();
    auto it = std::find_if(merges.begin(), merges.end(), [&](const Bounds& m) { return RangeText(m) == text; });
    if (it == merges.end()) throw PyError("SheetError", "Range '" + text + "' is not merged");
    merges.erase(it);
    for (std::int64_t r = b.min_row; r <= b.max_row; ++r)
      for (std::int64_t c = b.min_col; c <= b.max_col; ++c)
        if (r != b.min_row || c != b.min_col) ws.cells().erase({r, c});
    SaveBook(ctx, wb, path);
    return "Range '" + text + "' unmerged successfully";
  });
}

std::string GetMergedCells(const Context& ctx, const Json& args) {
  std::string path = FullPath(Str(args, "filepath"));
  std::string name = Str(args, "sheet_name");
  py::List out = Rewrap("SheetError", [&] {
    Workbook wb = LoadBook(ctx, path);
    Sheet& ws = SheetOr(wb, name, "SheetError");
    py::List l;
    for (const auto& m : ws.merges()) l.push_back(RangeText(m));
    return l;
  });
  return py::Str(py::Value(std::move(out)));
}

std::string CopyRange(const Context& ctx, const Json& args) {
  std::string path = FullPath(Str(args, "filepath"));
  std::string name = Str(args, "sheet_name");
  std::string target_sheet = OptStr(args, "target_sheet");
  if (target_sheet.empty()) target_sheet = name;  // server.py: target_sheet or sheet_name
  std::string source_start = Str(args, "source_start"), source_end = Str(args, "source_end");
  std::string target_start = Str(args, "target_start");
  try {
    Workbook wb = LoadBook(ctx, path);
    Sheet& src = SheetOr(wb, name, "ValidationError");
    Sheet* dst = wb.Find(target_sheet);
    if (!dst) throw PyError("KeyError", "'Worksheet " + target_sheet + " does not exist.'");
    auto parsed = ParseCellRange(source_start, source_end);
    if (!parsed) throw PyError("ValidationError", "Invalid source range: " + parsed.error().message);
    std::string digits, letters;
    for (char c : target_start) {
      if (c >= '0' && c <= '9') digits += c;
      else if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) letters += c;
    }
    if (digits.empty())
      throw PyError("ValidationError", "Invalid target cell: invalid literal for int() with base 10: ''");
    std::int64_t target_row = std::stoll(digits.substr(0, 15));
    auto target_col = ColumnIndex(letters);
    if (!target_col) throw PyError("ValidationError", "Invalid target cell: " + target_col.error().message);
    if (!parsed->end) throw PyError("TypeError", "unsupported operand type(s) for +: 'NoneType' and 'int'");
    std::int64_t row_offset = target_row - parsed->start.row, col_offset = *target_col - parsed->start.col;
    std::int64_t r1 = parsed->start.row, c1 = parsed->start.col, r2 = parsed->end->row, c2 = parsed->end->col;
    if (r2 >= r1 && c2 >= c1) {
      std::uint64_t area = static_cast<std::uint64_t>(r2 - r1 + 1) * static_cast<std::uint64_t>(c2 - c1 + 1);
      if (area > ctx.options.max_cells) TooManyCells(ctx);
    }
    for (std::int64_t i = r1; i <= r2; ++i)
      for (std::int64_t j = c1; j <= c2; ++j) {
        if (i < 1 || j < 1 || i + row_offset < 1 || j + col_offset < 1)
          throw PyError("ValueError", "Row or column values must be at least 1");
        Cell source = src.At(i, j);  // ws.cell() creates the source cell too
        Cell& target = dst->At(i + row_offset, j + col_offset);
        target.value = source.value;
        if (source.style != 0) target.style = source.style;
      }
    if (wb.CellCount() > ctx.options.max_cells) TooManyCells(ctx);
    CheckExtent(*dst);
    SaveBook(ctx, wb, path);
    return std::string("Range copied successfully");
  } catch (const PyError& e) {
    if (e.cls() == "ValidationError" || e.cls() == "SheetError") throw;
    throw PyError("SheetError", "Failed to copy range: " + e.text());
  }
}

std::string DeleteRange(const Context& ctx, const Json& args) {
  std::string path = FullPath(Str(args, "filepath"));
  std::string name = Str(args, "sheet_name");
  std::string start_cell = Str(args, "start_cell"), end_cell = Str(args, "end_cell");
  std::string shift = Str(args, "shift_direction");
  try {
    Workbook wb = LoadBook(ctx, path);
    Sheet& ws = SheetOr(wb, name, "SheetError");
    auto parsed = ParseCellRange(start_cell, end_cell);
    if (!parsed) throw PyError("SheetError", "Invalid range: " + parsed.error().message);
    std::int64_t start_row = parsed->start.row, start_col = parsed->start.col;
    std::int64_t end_row = parsed->end ? parsed->end->row : 0, end_col = parsed->end ? parsed->end->col : 0;
    if (end_row && end_row > ws.max_row())
      throw PyError("SheetError", "End row " + std::to_string(end_row) + " out of bounds (1-" + std::to_string(ws.max_row()) + ")");
    if (end_col && end_col > ws.max_col())
      throw PyError("SheetError", "End column " + std::to_string(end_col) + " out of bounds (1-" + std::to_string(ws.max_col()) + ")");
    if (shift != "up" && shift != "left")
      throw PyError("ValidationError", "Invalid shift direction: " + shift + ". Must be 'up' or 'left'");
    std::int64_t er = end_row ? end_row : start_row, ec = end_col ? end_col : start_col;
    std::string text = RangeString(start_row, start_col, er, ec);
    // sheet.delete_range: every cell emptied and its style reset.
    if (er >= start_row && ec >= start_col &&
        static_cast<std::uint64_t>(er - start_row + 1) * static_cast<std::uint64_t>(ec - start_col + 1) > ctx.options.max_cells)
      TooManyCells(ctx);
    for (std::int64_t r = start_row; r <= er; ++r)
      for (std::int64_t c = start_col; c <= ec; ++c) {
        if (r < 1 || c < 1) throw PyError("ValueError", "Row or column values must be at least 1");
        ws.At(r, c) = Cell{};
      }
    bool ok = shift == "up" ? ws.DeleteRows(start_row, er - start_row + 1, ctx.options.max_cells)
                            : ws.DeleteCols(start_col, ec - start_col + 1, ctx.options.max_cells);
    if (!ok) TooManyCells(ctx);
    SaveBook(ctx, wb, path);
    return "Range " + text + " deleted successfully";
  } catch (const PyError& e) {
    if (e.cls() == "ValidationError" || e.cls() == "SheetError") throw;
    throw PyError("SheetError", e.text());
  }
}

namespace {

// sheet.insert_row / insert_cols / delete_rows / delete_cols.
std::string Lines(const Context& ctx, const Json& args, bool rows, bool insert) {
  std::string path = FullPath(Str(args, "filepath"));
  std::string name = Str(args, "sheet_name");
  std::int64_t start = Int(args, rows ? "start_row" : "start_col");
  std::int64_t count = Int(args, "count");
  try {
    Workbook wb = LoadBook(ctx, path);
    Sheet& ws = SheetOr(wb, name, "SheetError");
    if (start < 1) throw PyError("ValidationError", rows ? "Start row must be 1 or greater" : "Start column must be 1 or greater");
    if (count < 1) throw PyError("ValidationError", "Count must be 1 or greater");
    if (!insert && rows && start > ws.max_row())
      throw PyError("ValidationError", "Start row " + std::to_string(start) +
                                           " exceeds worksheet bounds (max row: " + std::to_string(ws.max_row()) + ")");
    if (!insert && !rows && start > ws.max_col())
      throw PyError("ValidationError", "Start column " + std::to_string(start) +
                                           " exceeds worksheet bounds (max column: " + std::to_string(ws.max_col()) + ")");
    // Counts past the sheet's size would only push cells off it.
    std::int64_t limit = rows ? kMaxRow : kMaxColumn;
    if (insert && count > limit) count = limit + 1;
    std::uint64_t max = ctx.options.max_cells;
    bool ok = insert ? (rows ? ws.InsertRows(start, count, max) : ws.InsertCols(start, count, max))
                     : (rows ? ws.DeleteRows(start, std::min(count, limit + 1), max)
                             : ws.DeleteCols(start, std::min(count, limit + 1), max));
    if (!ok) TooManyCells(ctx);
    count = Int(args, "count");
    CheckExtent(ws);
    SaveBook(ctx, wb, path);
    std::string what = rows ? "row(s)" : "column(s)";
    std::string at = rows ? "row " : "column ";
    return std::string(insert ? "Inserted " : "Deleted ") + std::to_string(count) + " " + what + " starting at " + at +
           std::to_string(start) + " in sheet '" + name + "'";
  } catch (const PyError& e) {
    if (e.cls() == "ValidationError" || e.cls() == "SheetError") throw;
    throw PyError("SheetError", e.text());
  }
}

}  // namespace

std::string InsertRows(const Context& ctx, const Json& args) { return Lines(ctx, args, true, true); }
std::string InsertColumns(const Context& ctx, const Json& args) { return Lines(ctx, args, false, true); }
std::string DeleteSheetRows(const Context& ctx, const Json& args) { return Lines(ctx, args, true, false); }
std::string DeleteSheetColumns(const Context& ctx, const Json& args) { return Lines(ctx, args, false, false); }

}  // namespace sbx::servers::excel
