#include "servers/excel/formula_shift.h"

namespace sbx::servers::excel {
namespace {

bool IsLetter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
// Characters that may continue a name (a function, a defined name, a sheet).
bool IsNameChar(char c) { return IsLetter(c) || IsDigit(c) || c == '_' || c == '.' || static_cast<unsigned char>(c) >= 0x80; }

}  // namespace

std::string ShiftFormula(const std::string& f, std::int64_t rows, std::int64_t cols) {
  std::string out;
  std::size_t i = 0;
  while (i < f.size()) {
    char c = f[i];
    if (c == '"' || c == '\'') {  // a string literal or a quoted sheet name: copied as is
      std::size_t j = i + 1;
      while (j < f.size()) {
        if (f[j] == c) {
          if (j + 1 < f.size() && f[j + 1] == c) {
            j += 2;
            continue;
          }
          break;
        }
        ++j;
      }
      j = std::min(j + 1, f.size());
      out.append(f, i, j - i);
      i = j;
      continue;
    }
    bool boundary = i == 0 || !IsNameChar(f[i - 1]);
    if (boundary && (c == '$' || IsLetter(c))) {
      // [$]letters[$]digits, not followed by a name character or '('.
      std::size_t j = i;
      bool col_abs = false, row_abs = false;
      if (f[j] == '$') col_abs = true, ++j;
      std::size_t ls = j;
      while (j < f.size() && IsLetter(f[j])) ++j;
      std::size_t le = j;
      if (j < f.size() && f[j] == '$') row_abs = true, ++j;
      std::size_t ds = j;
      while (j < f.size() && IsDigit(f[j])) ++j;
      std::size_t de = j;
      bool is_ref = le > ls && le - ls <= 3 && de > ds && (j >= f.size() || (!IsNameChar(f[j]) && f[j] != '(' && f[j] != '!'));
      if (is_ref) {
        auto col = ColumnIndex(std::string_view(f).substr(ls, le - ls));
        if (col) {
          std::int64_t row = std::stoll(f.substr(ds, std::min<std::size_t>(de - ds, 12)));
          std::int64_t new_col = col_abs ? *col : *col + cols;
          std::int64_t new_row = row_abs ? row : row + rows;
          if (new_col < 1 || new_col > kMaxColumn || new_row < 1 || new_row > kMaxRow) {
            out += "#REF!";
          } else {
            out += col_abs ? "$" : "";
            out += ColumnLetter(new_col);
            out += row_abs ? "$" : "";
            out += std::to_string(new_row);
          }
          i = j;
          continue;
        }
      }
      // A name: copied whole so its tail is not read as a reference.
      std::size_t k = i + (c == '$' ? 1 : 0);
      while (k < f.size() && IsNameChar(f[k])) ++k;
      out.append(f, i, std::max(k, i + 1) - i);
      i = std::max(k, i + 1);
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

std::string FormulaShift::At(CellPos target) const {
  return ShiftFormula(formula_, target.row - origin_.row, target.col - origin_.col);
}

}  // namespace sbx::servers::excel
