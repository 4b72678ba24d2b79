// Workbooks for the excel server: any bytes through its loader (the
// package, the workbook part, shared strings, styles and every worksheet
// into cells, merges and validations), then what the tools do with a
// loaded workbook: number texts, formula moves, validation ranges, row and
// column moves, a save. A refusal is fine; a crash, a hang or an unbounded
// allocation is not. What we save must load again.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "servers/excel/formula_shift.h"
#include "servers/excel/validation_rules.h"
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
  for (const auto& name : wb->SheetNames()) {
    Sheet* ws = wb->Find(name);
    for (const auto& rule : ReadValidations(*ws)) (void)SqrefText(rule);
    std::size_t seen = 0;
    for (const auto& [pos, cell] : ws->cells()) {
      (void)wb->IsDateStyle(cell.style);
      if (cell.value.is_number()) (void)NumberText(cell.value.number());
      if (cell.value.kind == CellValue::Kind::kFormula) (void)ShiftFormula(cell.value.s, 3, -2);
      if (++seen > 2000) break;
    }
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
