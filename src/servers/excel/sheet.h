// One worksheet: its XML DOM, with the cells of <sheetData> and the ranges
// of <mergeCells> lifted out into an index while the workbook is open.
// Everything else in the part (columns, views, validations, conditional
// formats, drawings, extensions) stays in the DOM untouched and is written
// back as read. On save the cells are written as openpyxl writes them:
// every cell openpyxl would hold (empty ones included), strings inline,
// formulas without a cached value, numbers as "%.16g", and <dimension>
// recomputed from the cells present.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <string>
#include <utility>
#include <vector>

#include <pugixml.hpp>

#include "ooxml/error.h"
#include "ooxml/limits.h"
#include "servers/excel/cell_ref.h"
#include "servers/excel/cell_value.h"

namespace sbx::ooxml {
class SharedStrings;
}

namespace sbx::servers::excel {

struct Cell {
  CellValue value;
  std::uint32_t style = 0;  // index into the stylesheet's cellXfs
  bool operator==(const Cell&) const = default;
};

// Cells keyed (row, column): row-major order, as openpyxl writes them.
using CellMap = std::map<std::pair<std::int64_t, std::int64_t>, Cell>;

class Sheet {
 public:
  // Parses a worksheet part. Shared strings resolve t="s" cells (an index
  // past the table is kBadValue); shared formulas are expanded into each
  // cell's own formula, as openpyxl's reader translates them. `max_cells`
  // bounds the cells kept (kTooLarge past it).
  static ooxml::Result<Sheet> Parse(std::string_view xml, std::string_view part, const ooxml::SharedStrings* strings,
                                    std::uint64_t max_cells, const ooxml::Limits& limits);
  // openpyxl's new worksheet.
  static Sheet New();
  // A deep copy (copy_worksheet: cells, merges and the rest of the DOM).
  Sheet Clone() const;

  // The part as openpyxl would write these cells.
  std::string Serialize() const;

  CellMap& cells() { return cells_; }
  const CellMap& cells() const { return cells_; }
  std::vector<Bounds>& merges() { return merges_; }
  const std::vector<Bounds>& merges() const { return merges_; }
  pugi::xml_node root() const { return doc_->document_element(); }

  // ws.cell(row, col): the cell, created empty when absent (openpyxl keeps
  // such a cell and writes it).
  Cell& At(std::int64_t row, std::int64_t col) { return cells_[{row, col}]; }
  const Cell* Find(std::int64_t row, std::int64_t col) const;

  // ws.min_row / max_row / min_column / max_column: 1 on an empty sheet.
  std::int64_t min_row() const;
  std::int64_t max_row() const;
  std::int64_t min_col() const;
  std::int64_t max_col() const;

  // openpyxl's insert_rows/insert_cols/delete_rows/delete_cols: only cells
  // move (merges, formulas, validations and row heights stay where they
  // are, as in openpyxl), and the empty cells openpyxl creates on the way
  // are created here too. false (cells possibly half moved: the caller
  // drops the workbook) when the sheet would pass `max_cells`.
  bool InsertRows(std::int64_t idx, std::int64_t amount, std::uint64_t max_cells);
  bool InsertCols(std::int64_t idx, std::int64_t amount, std::uint64_t max_cells);
  bool DeleteRows(std::int64_t idx, std::int64_t amount, std::uint64_t max_cells);
  bool DeleteCols(std::int64_t idx, std::int64_t amount, std::uint64_t max_cells);

 private:
  Sheet() = default;
  bool MoveCells(std::int64_t from, std::int64_t offset, bool rows, std::uint64_t max_cells);
  bool DeleteLines(std::int64_t idx, std::int64_t amount, bool rows, std::uint64_t max_cells);
  std::shared_ptr<pugi::xml_document> doc_;
  CellMap cells_;
  std::vector<Bounds> merges_;
};

// The child `local` of <worksheet> `root`, created at its place in the
// schema's order when absent (with the root's namespace prefix).
pugi::xml_node EnsureWorksheetChild(pugi::xml_node root, std::string_view local);

}  // namespace sbx::servers::excel
