// Cell and range references as upstream and openpyxl parse them, with
// their error texts. Upstream mixes three parsers: its own
// parse_cell_range (a regex matched at the start of the upper-cased text,
// so "A1junk" reads as A1), validate_cell_reference (letters then digits,
// nothing else), and openpyxl's coordinate and range parsers (used when a
// tool indexes the sheet with the text as given).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"

namespace sbx::servers::excel {

inline constexpr std::int64_t kMaxColumn = 18278;  // "ZZZ": openpyxl's column limit
inline constexpr std::int64_t kMaxRow = 1048576;

// openpyxl.utils.get_column_letter: 1 -> "A"; "" when out of 1..18278
// (openpyxl raises "Invalid column index {idx}").
std::string ColumnLetter(std::int64_t index);
// openpyxl.utils.column_index_from_string (case-insensitive, 1..18278);
// the error text is openpyxl's "{text} is not a valid column name".
Result<std::int64_t> ColumnIndex(std::string_view text);

struct CellPos {
  std::int64_t row = 0;
  std::int64_t col = 0;
  bool operator==(const CellPos&) const = default;
};

// "B3" for {3, 2}.
std::string CellName(CellPos pos);

// cell_utils.parse_cell_range's parse of one reference: upper-case, then
// ([A-Z]+)([0-9]+) at the start; the rest of the text is ignored. Errors:
// "Invalid cell reference: {text}" or openpyxl's column-name error. Row
// numbers too long for 64 bits are clamped (Python's int has no bound;
// every later bound check fails them alike).
Result<CellPos> ParseCellPrefix(std::string_view text);

struct ParsedRange {
  CellPos start;
  std::optional<CellPos> end;
};
// cell_utils.parse_cell_range(cell_ref, end_ref): `end_ref` empty means None.
Result<ParsedRange> ParseCellRange(std::string_view cell_ref, std::string_view end_ref = {});

// cell_utils.validate_cell_reference: non-empty, letters then digits, both
// present. Python's isalpha/isdigit are Unicode-aware; here only ASCII
// letters and digits count (a non-ASCII character makes it invalid).
bool ValidateCellReference(std::string_view text);

// openpyxl's coordinate_from_string / ws[key] for a single cell:
// ^$?([A-Za-z]{1,3})$?(\d+)$. nullopt if it does not match.
std::optional<CellPos> ParseCoordinate(std::string_view text);

// openpyxl's range_boundaries for "A1:B2", "A1", "A:B", "1:2" (what
// CellRange and sqref accept). Missing parts are 0. nullopt if it does
// not match.
struct Bounds {
  std::int64_t min_col = 0, min_row = 0, max_col = 0, max_row = 0;
  bool operator==(const Bounds&) const = default;
};
std::optional<Bounds> RangeBoundaries(std::string_view text);
// "A1:B2", or "A1" when the range is one cell (str(CellRange)).
std::string RangeText(const Bounds& b);

}  // namespace sbx::servers::excel
