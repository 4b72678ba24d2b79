// create_chart (chart.py) and create_pivot_table (pivot.py).
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/strings.h"
#include "ooxml/chart.h"
#include "python_text/repr.h"
#include "servers/excel/cell_python.h"
#include "servers/excel/py_error.h"
#include "servers/excel/tools.h"
#include "servers/excel/variants.h"

namespace sbx::servers::excel {
namespace {

// Python's str.capitalize(): first character upper, the rest lower (ASCII).
std::string Capitalize(std::string s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    char& c = s[i];
    if (i == 0 && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    else if (i > 0 && c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

// Python's int(text) for what upstream gives it (target_cell[1:]):
// optional whitespace and sign, digits with single underscores between.
std::optional<std::int64_t> PyInt(const std::string& text) {
  std::size_t b = text.find_first_not_of(" \t\n\r\f\v"), e = text.find_last_not_of(" \t\n\r\f\v");
  if (b == std::string::npos) return std::nullopt;
  std::string t = text.substr(b, e - b + 1);
  bool neg = false;
  std::size_t i = 0;
  if (t[0] == '+' || t[0] == '-') neg = t[0] == '-', i = 1;
  if (i >= t.size() || t.back() == '_') return std::nullopt;
  std::int64_t v = 0;
  bool prev_digit = false;
  for (; i < t.size(); ++i) {
    if (t[i] == '_') {
      if (!prev_digit) return std::nullopt;
      prev_digit = false;
      continue;
    }
    if (t[i] < '0' || t[i] > '9') return std::nullopt;
    v = std::min<std::int64_t>(v * 10 + (t[i] - '0'), 1'000'000'000'000LL);
    prev_digit = true;
  }
  return neg ? -v : v;
}

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    std::size_t p = s.find(sep, start);
    out.push_back(s.substr(start, p == std::string::npos ? std::string::npos : p - start));
    if (p == std::string::npos) return out;
    start = p + 1;
  }
}

[[noreturn]] void Unpack(std::size_t got) {
  if (got > 2) throw PyError("ValueError", "too many values to unpack (expected 2)");
  throw PyError("ValueError", "not enough values to unpack (expected 2, got " + std::to_string(got) + ")");
}

}  // namespace

std::string CreateChart(const Context& ctx, const Json& args) {
  std::string path = FullPath(Str(args, "filepath"));
  std::string sheet_name = Str(args, "sheet_name"), data_range = Str(args, "data_range");
  std::string chart_type = Str(args, "chart_type"), target_cell = Str(args, "target_cell");
  try {
    Workbook wb = LoadBook(ctx, path);
    if (!wb.Find(sheet_name)) throw PyError("ValidationError", "Sheet '" + sheet_name + "' not found");
    std::string cell_range = data_range;
    if (data_range.find('!') != std::string::npos) {
      auto parts = Split(data_range, '!');
      if (parts.size() != 2) Unpack(parts.size());
      if (!wb.Find(parts[0]))
        throw PyError("ValidationError", "Sheet '" + parts[0] + "' referenced in data range not found");
      cell_range = parts[1];
    }
    std::int64_t r1, c1, r2, c2;
    try {
      auto parts = Split(cell_range, ':');
      if (parts.size() != 2) Unpack(parts.size());
      auto parsed = ParseCellRange(parts[0], parts[1]);
      if (!parsed) throw PyError("ValueError", parsed.error().message);
      r1 = parsed->start.row, c1 = parsed->start.col;
      // An empty end cell leaves end None upstream; its arithmetic then fails.
      if (!parsed->end) throw PyError("TypeError", "unsupported operand type(s) for +: 'NoneType' and 'int'");
      r2 = parsed->end->row, c2 = parsed->end->col;
    } catch (const PyError& e) {
      if (e.cls() != "ValueError") throw;
      throw PyError("ValidationError", "Invalid data range format: " + e.text());
    }
    std::string kind_text = strings::AsciiLower(chart_type);
    static const std::map<std::string, ooxml::ChartKind> kinds = {{"line", ooxml::ChartKind::kLine},
                                                                  {"bar", ooxml::ChartKind::kBar},
                                                                  {"pie", ooxml::ChartKind::kPie},
                                                                  {"scatter", ooxml::ChartKind::kScatter},
                                                                  {"area", ooxml::ChartKind::kArea}};
    auto kind = kinds.find(kind_text);
    if (kind == kinds.end())
      throw PyError("ValidationError",
                    "Unsupported chart type: " + chart_type + ". Supported types: line, bar, pie, scatter, area");
    if (r1 > kMaxRow || r2 > kMaxRow) throw PyError("ChartError", "Failed to create chart data references: row out of range");
    ooxml::ChartSpec spec;
    spec.kind = kind->second;
    spec.title = Str(args, "title");
    if (spec.kind != ooxml::ChartKind::kPie) {
      spec.x_axis_title = Str(args, "x_axis");
      spec.y_axis_title = Str(args, "y_axis");
    }
    auto u = [](std::int64_t v) { return static_cast<std::uint32_t>(std::max<std::int64_t>(v, 0)); };
    // The references point at the chart's own sheet, whatever sheet the
    // data range named (upstream builds them on `worksheet`).
    if (c2 - c1 > 1000) throw PyError("ChartError", "Failed to create chart data references: too many series");
    for (std::int64_t col = c1 + 1; col <= c2; ++col) {
      ooxml::ChartSeries s;
      if (spec.kind == ooxml::ChartKind::kScatter) {
        // Series(y, x, title_from_data=True): y's first cell is the title.
        s.categories_ref = ooxml::RangeFormula(sheet_name, u(c1), u(r1 + 1), u(c1), u(r2));
        s.title_ref = ooxml::CellFormula(sheet_name, u(col), u(r1 + 1));
        s.values_ref = ooxml::RangeFormula(sheet_name, u(col), u(r1 + 2), u(col), u(r2));
      } else {
        s.title_ref = ooxml::CellFormula(sheet_name, u(col), u(r1));
        s.categories_ref = ooxml::RangeFormula(sheet_name, u(c1), u(r1 + 1), u(c1), u(r2));
        s.values_ref = ooxml::RangeFormula(sheet_name, u(col), u(r1 + 1), u(col), u(r2));
      }
      spec.series.push_back(std::move(s));
    }
    spec.legend_position = "r";
    // 0.1.7 passes a style that shows values; 0.1.4 passed none, so its
    // charts have no data labels.
    if (ctx.options.variant != kVariant0_1_4) spec.data_labels = ooxml::ChartDataLabels{};
    // The target cell is checked but the chart stays at openpyxl's default
    // anchor (E15): upstream sets the anchor on a drawing openpyxl never writes.
    bool alpha = false, digit = false;
    for (char c : target_cell) {
      alpha = alpha || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
      digit = digit || (c >= '0' && c <= '9');
    }
    if (target_cell.empty() || !alpha || !digit)
      throw PyError("ChartError", "Failed to create chart drawing: Invalid target cell format: " + target_cell);
    if (!ColumnIndex(target_cell.substr(0, 1)))
      throw PyError("ValidationError", "Invalid target cell: " + target_cell.substr(0, 1) + " is not a valid column name");
    if (!PyInt(target_cell.substr(1)))
      throw PyError("ValidationError", "Invalid target cell: invalid literal for int() with base 10: " +
                                           py::Repr(std::string_view(target_cell).substr(1)));
    try {
      if (auto st = wb.Flush(); !st) throw PyError("ValueError", st.error().message);
      auto placed = ooxml::AddChartToWorksheet(wb.package(), wb.PartOf(sheet_name), spec, ooxml::ChartAnchor{});
      if (!placed) throw PyError("ValueError", placed.error().message);
      LoadLimits limits;
      limits.max_cells = ctx.options.max_cells;
      limits.package.max_package_bytes = ctx.options.max_file_bytes;
      limits.package.max_total_bytes = ctx.options.max_unzipped_bytes;
      auto reloaded = Workbook::FromPackage(std::move(wb.package()), limits);
      if (!reloaded) throw PyError("ValueError", reloaded.error().message);
      SaveBook(ctx, *reloaded, path);
    } catch (const PyError& e) {
      throw PyError("ChartError", "Failed to save workbook with chart: " + e.text());
    }
    return Capitalize(chart_type) + " chart created successfully";
  } catch (const PyError& e) {
    if (e.cls() == "ValidationError" || e.cls() == "ChartError") throw;
    throw PyError("ChartError", "Unexpected error creating chart: " + e.text());
  }
}

namespace {

// pivot.clean_field_name.
std::string CleanField(const std::string& field) {
  const char* ws = " \t\n\r\x0b\x0c";
  std::size_t b = field.find_first_not_of(ws);
  std::string f = b == std::string::npos ? "" : field.substr(b, field.find_last_not_of(ws) - b + 1);
  std::string lower = strings::AsciiLower(f);
  for (const char* suffix : {" (sum)", " (average)", " (count)", " (min)", " (max)"}) {
    std::string sx = suffix;
    if (lower.size() >= sx.size() && lower.compare(lower.size() - sx.size(), sx.size(), sx) == 0)
      return f.substr(0, f.size() - sx.size());
  }
  return f;
}

// A source value as the pivot code sees it.
struct PyVal {
  py::Value value;
  bool numeric = false;  // int, float or bool (isinstance(v, (int, float)))
  double number = 0;
  bool is_float = false;
};

PyVal FromCell(const Workbook& wb, const Cell* cell) {
  PyVal v;
  if (!cell) return v;
  const CellValue& cv = cell->value;
  bool date = wb.IsDateStyle(cell->style);
  v.value = ToPython(cv, date);
  if (!date && (cv.is_number() || cv.kind == CellValue::Kind::kBool)) {
    v.numeric = true;
    v.is_float = cv.kind == CellValue::Kind::kFloat;
    v.number = cv.kind == CellValue::Kind::kBool ? (cv.b ? 1 : 0) : cv.number();
  }
  return v;
}

}  // namespace

std::string CreatePivotTable(const Context& ctx, const Json& args) {
  std::string path = FullPath(Str(args, "filepath"));
  std::string sheet_name = Str(args, "sheet_name"), data_range = Str(args, "data_range");
  std::string agg = Str(args, "agg_func");
  std::vector<std::string> rows, values;
  for (const auto& v : args.at("rows")) rows.push_back(v.get<std::string>());
  for (const auto& v : args.at("values")) values.push_back(v.get<std::string>());
  std::vector<std::string> columns;
  if (args.contains("columns") && args["columns"].is_array())
    for (const auto& v : args["columns"]) columns.push_back(v.get<std::string>());
  try {
    Workbook wb = LoadBook(ctx, path);
    Sheet* src = wb.Find(sheet_name);
    if (!src) throw PyError("ValidationError", "Sheet '" + sheet_name + "' not found");
    if (data_range.find(':') == std::string::npos) throw PyError("ValidationError", "Data range must be in format 'A1:B2'");
    auto parts = Split(data_range, ':');
    std::optional<ParsedRange> parsed;
    try {
      if (parts.size() != 2) Unpack(parts.size());
      auto p = ParseCellRange(parts[0], parts[1]);
      if (!p) throw PyError("ValueError", p.error().message);
      parsed = *p;
    } catch (const PyError& e) {
      throw PyError("ValidationError", "Invalid data range format: " + e.text());
    }
    if (!parsed->end) throw PyError("ValidationError", "Invalid data range format: missing end coordinates");
    // data.read_excel_range over the same file: rows with any value.
    std::vector<std::vector<PyVal>> table;
    try {
      std::int64_t r1 = parsed->start.row, c1 = parsed->start.col, r2 = parsed->end->row, c2 = parsed->end->col;
      if (!(r1 > src->max_row() || c1 > src->max_col())) {
        if (r2 >= r1 && c2 >= c1 &&
            static_cast<std::uint64_t>(r2 - r1 + 1) * static_cast<std::uint64_t>(c2 - c1 + 1) > ctx.options.max_cells)
          throw PyError("DataError", "Range too large for this deployment's limit of " + std::to_string(ctx.options.max_cells) + " cells");
        for (std::int64_t r = r1; r <= r2; ++r) {
          std::vector<PyVal> row;
          bool any = false;
          for (std::int64_t c = c1; c <= c2; ++c) {
            row.push_back(FromCell(wb, src->Find(r, c)));
            any = any || !std::holds_alternative<py::None>(row.back().value.v);
          }
          if (any) table.push_back(std::move(row));
        }
      }
      if (table.size() < 2) throw PyError("PivotError", "Source data must have a header row and at least one data row.");
    } catch (const PyError& e) {
      throw PyError("PivotError", "Failed to read or process source data: " + e.text());
    }
    // dict(zip(headers, row)): a repeated header keeps its first place and its last value.
    std::vector<std::string> headers;
    std::map<std::string, std::size_t> column_of;
    for (std::size_t i = 0; i < table[0].size(); ++i) {
      std::string h = py::Str(table[0][i].value);
      if (!column_of.count(h)) headers.push_back(h);
      column_of[h] = i;
    }
    static const std::vector<std::string> valid = {"sum", "average", "count", "min", "max"};
    if (std::find(valid.begin(), valid.end(), strings::AsciiLower(agg)) == valid.end())
      throw PyError("ValidationError", "Invalid aggregation function. Must be one of: sum, average, count, min, max");
    std::set<std::string> available;
    for (const auto& h : headers) available.insert(strings::AsciiLower(CleanField(h)));
    std::vector<std::string> sorted_raw = headers;
    std::sort(sorted_raw.begin(), sorted_raw.end());
    std::string joined;
    for (const auto& h : sorted_raw) joined += (joined.empty() ? "" : ", ") + h;
    auto check = [&](const std::vector<std::string>& fields, const char* kind) {
      for (const auto& f : fields)
        if (!available.count(strings::AsciiLower(CleanField(f))))
          throw PyError("ValidationError", std::string("Invalid ") + kind + " field '" + f + "'. Available fields: " + joined);
    };
    check(rows, "row");
    check(values, "value");
    check(columns, "column");
    std::vector<std::string> clean_rows, clean_values;
    for (const auto& f : rows) clean_rows.push_back(CleanField(f));
    for (const auto& f : values) clean_values.push_back(CleanField(f));

    // record.get(field, '') as str, per record.
    auto text_of = [&](std::size_t rec, const std::string& field) -> std::optional<std::string> {
      auto it = column_of.find(field);
      if (it == column_of.end()) return std::nullopt;
      return py::Str(table[rec][it->second].value);
    };
    std::vector<std::vector<std::string>> distinct;  // sorted set per row field
    for (const auto& f : clean_rows) {
      std::set<std::string> s;
      for (std::size_t rec = 1; rec < table.size(); ++rec) s.insert(text_of(rec, f).value_or(""));
      distinct.emplace_back(s.begin(), s.end());
    }
    std::vector<std::vector<std::string>> combos = {{}};
    for (const auto& d : distinct) {
      std::vector<std::vector<std::string>> next;
      for (const auto& c : combos)
        for (const auto& v : d) {
          next.push_back(c);
          next.back().push_back(v);
        }
      combos = std::move(next);
      if (combos.size() > ctx.options.max_cells) throw PyError("PivotError", "Too many row combinations");
    }
    std::string pivot_name = sheet_name + "_pivot";
    if (wb.Find(pivot_name)) wb.Remove(pivot_name);
    if (auto e = TitleError(pivot_name)) throw PyError("ValueError", *e);
    Sheet& out = wb.Create(pivot_name);
    std::string actual_name = wb.SheetNames().back();
    ooxml::FontSpec bold;
    bold.bold = true;
    ooxml::Xf xf;
    xf.font_id = *wb.styles().InternFont(bold.ToXml());
    xf.SetAttribute("applyFont", "1");
    std::uint32_t bold_style = wb.styles().InternCellXf(xf);
    std::int64_t col = 1;
    for (const auto& f : clean_rows) out.At(1, col++) = Cell{FromJsonValue(Json(f)), bold_style};
    for (const auto& f : clean_values) out.At(1, col++) = Cell{FromJsonValue(Json(f + " (" + agg + ")")), bold_style};
    std::int64_t row = 2;
    for (const auto& combo : combos) {
      col = 1;
      for (const auto& v : combo) out.At(row, col++).value = FromJsonValue(Json(v));
      // _filter_data compares the raw value with the str() of the combo: only str cells match.
      std::vector<std::size_t> matching;
      for (std::size_t rec = 1; rec < table.size(); ++rec) {
        bool ok = true;
        for (std::size_t i = 0; i < clean_rows.size() && ok; ++i) {
          auto it = column_of.find(clean_rows[i]);
          const py::Value* raw = it == column_of.end() ? nullptr : &table[rec][it->second].value;
          ok = raw && std::holds_alternative<std::string>(raw->v) && std::get<std::string>(raw->v) == combo[i];
        }
        if (ok) matching.push_back(rec);
      }
      for (const auto& vf : clean_values) {
        std::vector<const PyVal*> nums;
        auto it = column_of.find(vf);
        if (it != column_of.end())
          for (auto rec : matching)
            if (table[rec][it->second].numeric) nums.push_back(&table[rec][it->second]);
        CellValue result = CellValue::Int(0);
        if (!nums.empty()) {
          bool any_float = std::any_of(nums.begin(), nums.end(), [](const PyVal* p) { return p->is_float; });
          double sum = 0;
          for (auto* p : nums) sum += p->number;
          if (agg == "sum") result = any_float ? CellValue::Float(sum) : CellValue::Int(static_cast<std::int64_t>(sum));
          else if (agg == "average") result = CellValue::Float(sum / static_cast<double>(nums.size()));
          else if (agg == "count") result = CellValue::Int(static_cast<std::int64_t>(nums.size()));
          else if (agg == "min" || agg == "max") {
            const PyVal* best = nums[0];
            for (auto* p : nums)
              if (agg == "min" ? p->number < best->number : p->number > best->number) best = p;
            result = best->is_float ? CellValue::Float(best->number) : CellValue::Int(static_cast<std::int64_t>(best->number));
          } else {
            // _aggregate_values: any other spelling ("SUM", "Max") sums.
            result = any_float ? CellValue::Float(sum) : CellValue::Int(static_cast<std::int64_t>(sum));
          }
        }
        out.At(row, col++).value = result;
      }
      ++row;
    }
    std::int64_t total_cols = static_cast<std::int64_t>(clean_rows.size() + clean_values.size());
    std::int64_t total_rows = static_cast<std::int64_t>(combos.size()) + 1;
    try {
      if (total_cols < 1) throw PyError("ValueError", "Invalid column index 0");
      AddTable(wb, actual_name, "A1:" + ColumnLetter(total_cols) + std::to_string(total_rows), "PivotTable_" + RandomHex8(),
               "TableStyleMedium9", true);
    } catch (const PyError& e) {
      throw PyError("PivotError", "Failed to create pivot table formatting: " + e.text());
    }
    try {
      SaveBook(ctx, wb, path);
    } catch (const PyError& e) {
      throw PyError("PivotError", "Failed to save workbook: " + e.text());
    }
    return std::string("Summary table created successfully");
  } catch (const PyError& e) {
    if (e.cls() == "ValidationError" || e.cls() == "PivotError") throw;
    throw PyError("PivotError", e.text());
  }
}

}  // namespace sbx::servers::excel
