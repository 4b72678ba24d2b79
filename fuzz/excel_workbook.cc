// Workbooks for the excel server: any bytes through its loader (the
// package, the workbook part, shared strings, styles and every worksheet
// into cells, merges and validations), then what the tools do with a
// loaded workbook: values as Python sees them, validation lookups, row and
// column moves, a save. A refusal is fine; a crash, a hang or an unbounded
// allocation is not. What we save must load again.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "python_text/json_dumps.h"
#include "servers/excel/validations.h"
#include "servers/excel/workbook.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sbx::servers::excel;
  LoadLimits limits;
  limits.package.max_part_bytes = 4 << 20;
  limits.package.max_total_bytes = 16 << 20;
  limits.package.max_parts = 256;
  limits.package.max_xml_nodes = 200'000;
  limits.max_cells = 20'000;
  auto wb = Workbook::Load(std::string_view(reinterpret_cast<const char*>(data), size), limits);
  if (!wb.ok()) return 0;
  auto dates = [&](std::uint32_t s) { return wb->IsDateStyle(s); };
  for (const auto& name : wb->SheetNames()) {
    Sheet* ws = wb->Find(name);
    auto rules = ReadValidations(*ws);
    sbx::py::List values;
    for (const auto& [pos, cell] : ws->cells()) {
      values.push_back(ToPython(cell.value, wb->IsDateStyle(cell.style)));
      (void)ValidationForCell(rules, *ws, {pos.first, pos.second}, dates);
      if (values.size() > 2000) break;
    }
    (void)sbx::py::Dumps(sbx::py::Value(std::move(values)), {.indent = 2});
    (void)AllValidationRanges(rules, *ws, dates);
    if (ws->max_row() < 1000 && ws->max_col() < 100) {
      (void)ws->InsertRows(2, 3, limits.max_cells);
      (void)ws->DeleteCols(1, 1, limits.max_cells);
    }
  }
  auto saved = wb->Save();
  if (!saved.ok()) return 0;
  LoadLimits again = limits;
  again.max_cells = 200'000;
  again.package.max_total_bytes = 64 << 20;
  again.package.max_part_bytes = 32 << 20;
  again.package.max_xml_nodes = 2'000'000;
  if (!Workbook::Load(*saved, again).ok()) std::abort();
  return 0;
}
