#include "servers/excel/cell_ref.h"

#include <limits>

namespace sbx::servers::excel {
namespace {

bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }
bool IsLetter(char c) { return IsUpper(c) || (c >= 'a' && c <= 'z'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
char Upper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }

// Digits to a number, saturating: rows this long fail every bound check.
std::int64_t Number(std::string_view digits) {
  constexpr std::int64_t kCap = std::numeric_limits<std::int64_t>::max() / 10 - 10;
  std::int64_t n = 0;
  for (char c : digits) {
    n = n * 10 + (c - '0');
    if (n > kCap) return kCap;
  }
  return n;
}

// Letters (already upper) to an index, 0 if more than 3 or past ZZZ.
std::int64_t ColumnNumber(std::string_view letters) {
  if (letters.empty() || letters.size() > 3) return 0;
  std::int64_t n = 0;
  for (char c : letters) n = n * 26 + (Upper(c) - 'A' + 1);
  return n <= kMaxColumn ? n : 0;
}

// Optional '$', 1-3 letters / digits, at `i`; advances `i`.
std::string_view Take(std::string_view s, std::size_t& i, bool (*pred)(char)) {
  std::size_t start = i;
  while (i < s.size() && pred(s[i])) ++i;
  return s.substr(start, i - start);
}

}  // namespace

std::string ColumnLetter(std::int64_t index) {
  if (index < 1 || index > kMaxColumn) return "";
  std::string out;
  while (index > 0) {
    std::int64_t rem = (index - 1) % 26;
    out.insert(out.begin(), static_cast<char>('A' + rem));
    index = (index - 1) / 26;
  }
  return out;
}

Result<std::int64_t> ColumnIndex(std::string_view text) {
  bool letters = !text.empty() && text.size() <= 3;
  for (char c : text) letters = letters && IsLetter(c);
  std::int64_t n = letters ? ColumnNumber(text) : 0;
  if (n == 0) return MakeError(ErrorCode::kInvalidArgument, std::string(text) + " is not a valid column name");
  return n;
}

std::string CellName(CellPos pos) { return ColumnLetter(pos.col) + std::to_string(pos.row); }

Result<CellPos> ParseCellPrefix(std::string_view text) {
  std::string upper(text);
  for (char& c : upper) c = Upper(c);
  std::size_t i = 0;
  std::string_view u = upper;
  std::string_view col = Take(u, i, IsUpper);
  std::string_view row = Take(u, i, IsDigit);
  if (col.empty() || row.empty())
    return MakeError(ErrorCode::kInvalidArgument, "Invalid cell reference: " + std::string(text));
  auto index = ColumnIndex(col);
  if (!index) return MakeError(ErrorCode::kInvalidArgument, std::string(col) + " is not a valid column name");
  return CellPos{Number(row), *index};
}

Result<ParsedRange> ParseCellRange(std::string_view cell_ref, std::string_view end_ref) {
  auto start = ParseCellPrefix(cell_ref);
  if (!start) return start.error();
  ParsedRange out{*start, std::nullopt};
  if (!end_ref.empty()) {
    auto end = ParseCellPrefix(end_ref);
    if (!end) return end.error();
    out.end = *end;
  }
  return out;
}

bool ValidateCellReference(std::string_view text) {
  if (text.empty()) return false;
  bool seen_digit = false, seen_letter = false;
  for (char c : text) {
    if (IsLetter(c)) {
      if (seen_digit) return false;
      seen_letter = true;
    } else if (IsDigit(c)) {
      seen_digit = true;
    } else {
      return false;
    }
  }
  return seen_letter && seen_digit;
}

std::optional<CellPos> ParseCoordinate(std::string_view text) {
  std::size_t i = 0;
  if (i < text.size() && text[i] == '$') ++i;
  std::string_view col = Take(text, i, IsLetter);
  if (col.empty() || col.size() > 3) return std::nullopt;
  if (i < text.size() && text[i] == '$') ++i;
  std::string_view row = Take(text, i, IsDigit);
  if (row.empty() || i != text.size()) return std::nullopt;
  std::int64_t c = ColumnNumber(col);
  if (c == 0) return std::nullopt;
  return CellPos{Number(row), c};
}

std::optional<Bounds> RangeBoundaries(std::string_view text) {
  // One side: [$]letters? [$]digits?, at least one of them.
  auto side = [](std::string_view s, std::int64_t& col, std::int64_t& row) {
    std::size_t i = 0;
    if (i < s.size() && s[i] == '$') ++i;
    std::string_view letters = Take(s, i, IsLetter);
    if (letters.empty() && i > 0 && i < s.size() && IsDigit(s[i])) {
      // "$1": an absolute row.
    } else if (!letters.empty() && i < s.size() && s[i] == '$') {
      ++i;
    }
    std::string_view digits = Take(s, i, IsDigit);
    if (i != s.size() || (letters.empty() && digits.empty()) || letters.size() > 3) return false;
    col = letters.empty() ? 0 : ColumnNumber(letters);
    if (!letters.empty() && col == 0) return false;
    row = digits.empty() ? 0 : Number(digits);
    return true;
  };
  Bounds b;
  std::size_t colon = text.find(':');
  if (colon == std::string_view::npos) {
    if (!side(text, b.min_col, b.min_row)) return std::nullopt;
    if (b.min_col == 0 || b.min_row == 0) return std::nullopt;  // a lone "A" or "1" is no range
    b.max_col = b.min_col, b.max_row = b.min_row;
    return b;
  }
  if (!side(text.substr(0, colon), b.min_col, b.min_row) || !side(text.substr(colon + 1), b.max_col, b.max_row))
    return std::nullopt;
  // Both sides must be of one form: cells, whole columns or whole rows.
  bool cells = b.min_col && b.min_row && b.max_col && b.max_row;
  bool cols = b.min_col && b.max_col && !b.min_row && !b.max_row;
  bool rows = !b.min_col && !b.max_col && b.min_row && b.max_row;
  if (!cells && !cols && !rows) return std::nullopt;
  return b;
}

std::string RangeText(const Bounds& b) {
  std::string first = ColumnLetter(b.min_col) + std::to_string(b.min_row);
  if (b.min_col == b.max_col && b.min_row == b.max_row) return first;
  return first + ":" + ColumnLetter(b.max_col) + std::to_string(b.max_row);
}

}  // namespace sbx::servers::excel
