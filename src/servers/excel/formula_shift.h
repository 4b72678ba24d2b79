// Moving a formula to another cell, as openpyxl's Translator does for the
// cells of a shared formula: relative references (A1, A$1's column, $A1's
// row) shift by the distance between the cells; absolute parts, text in
// quotes and sheet names stay. A reference pushed off the sheet becomes
// "#REF!", as openpyxl writes it.
#pragma once

#include <string>

#include "servers/excel/cell_ref.h"

namespace sbx::servers::excel {

class FormulaShift {
 public:
  FormulaShift(std::string formula, CellPos origin) : formula_(std::move(formula)), origin_(origin) {}
  // The formula as it reads at `target`.
  std::string At(CellPos target) const;

 private:
  std::string formula_;
  CellPos origin_;
};

// The formula moved by (rows, cols).
std::string ShiftFormula(const std::string& formula, std::int64_t rows, std::int64_t cols);

}  // namespace sbx::servers::excel
