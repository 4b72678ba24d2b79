#include "servers/excel/sheet.h"

#include <algorithm>
#include <cstdlib>

#include "ooxml/shared_strings.h"
#include "ooxml/xml.h"
#include "servers/excel/formula_shift.h"

namespace sbx::servers::excel {
namespace {

using ooxml::Attr;
using ooxml::Child;
using ooxml::Children;
using ooxml::Fault;
using ooxml::LocalName;
using ooxml::MakeFault;

constexpr const char* kMainNs = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
constexpr const char* kRelNs = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

// openpyxl's _cast_number: a '.', 'E' or 'e' makes a float.
std::optional<CellValue> CastNumber(std::string_view text) {
  std::string s(text);
  char* end = nullptr;
  if (s.find_first_of(".Ee") != std::string::npos) {
    double d = std::strtod(s.c_str(), &end);
    if (end == s.c_str() || *end) return std::nullopt;
    return CellValue::Float(d);
  }
  errno = 0;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (end == s.c_str() || *end) return std::nullopt;
  if (errno == ERANGE) return CellValue::Float(std::strtod(s.c_str(), nullptr));
  return CellValue::Int(v);
}

// The text of an inline string or shared-string-like <is>: its <t>, or the
// concatenated <t> of its runs.
std::string InlineText(pugi::xml_node is) {
  if (auto t = Child(is, "t")) return t.text().get();
  std::string out;
  for (auto r : Children(is, "r"))
    if (auto t = Child(r, "t")) out += t.text().get();
  return out;
}

std::uint32_t StyleIndex(pugi::xml_node c) {
  auto s = Attr(c, "s");
  if (!s) return 0;
  unsigned long v = std::strtoul(s.value(), nullptr, 10);
  return static_cast<std::uint32_t>(std::min<unsigned long>(v, UINT32_MAX));
}

// Children of <worksheet> in schema order, for placing elements we add.
const std::vector<std::string_view>& SchemaOrder() {
  static const std::vector<std::string_view> order = {
      "sheetPr", "dimension", "sheetViews", "sheetFormatPr", "cols", "sheetData", "sheetCalcPr",
      "sheetProtection", "protectedRanges", "scenarios", "autoFilter", "sortState", "dataConsolidate",
      "customSheetViews", "mergeCells", "phoneticPr", "conditionalFormatting", "dataValidations",
      "hyperlinks", "printOptions", "pageMargins", "pageSetup", "headerFooter", "rowBreaks", "colBreaks",
      "customProperties", "cellWatches", "ignoredErrors", "smartTags", "drawing", "legacyDrawing",
      "legacyDrawingHF", "drawingHF", "picture", "oleObjects", "controls", "webPublishItems", "tableParts",
      "extLst"};
  return order;
}

std::size_t Rank(std::string_view local) {
  const auto& order = SchemaOrder();
  auto it = std::find(order.begin(), order.end(), local);
  return it == order.end() ? order.size() : static_cast<std::size_t>(it - order.begin());
}

}  // namespace

// Finds the child `local` of the worksheet, creating it at its schema place.
pugi::xml_node EnsureWorksheetChild(pugi::xml_node root, std::string_view local) {
  if (auto existing = Child(root, local)) return existing;
  std::size_t rank = Rank(local);
  std::string name(local);
  // The element name takes the root's prefix, if it has one.
  std::string_view root_name = root.name();
  if (auto colon = root_name.find(':'); colon != std::string_view::npos)
    name = std::string(root_name.substr(0, colon + 1)) + name;
  for (auto child = root.first_child(); child; child = child.next_sibling()) {
    if (child.type() == pugi::node_element && Rank(LocalName(child)) > rank) return root.insert_child_before(name.c_str(), child);
  }
  return root.append_child(name.c_str());
}

ooxml::Result<Sheet> Sheet::Parse(std::string_view xml, std::string_view part, const ooxml::SharedStrings* strings,
                                  std::uint64_t max_cells, const ooxml::Limits& limits) {
  auto parsed = ooxml::ParseXml(xml, part, limits);
  if (!parsed) return parsed.error();
  Sheet sheet;
  sheet.doc_ = std::make_shared<pugi::xml_document>();
  sheet.doc_->reset(*parsed);
  pugi::xml_node root = sheet.doc_->document_element();
  if (LocalName(root) != "worksheet") return MakeFault(Fault::kBadValue, part, "root element is not worksheet");
  std::map<std::string, FormulaShift> shared;  // si -> master formula and its cell
  pugi::xml_node data = Child(root, "sheetData");
  std::int64_t row_counter = 0;
  for (auto row : Children(data, "row")) {
    if (auto r = Attr(row, "r")) row_counter = std::strtoll(r.value(), nullptr, 10);
    else ++row_counter;
    if (row_counter < 1 || row_counter > kMaxRow) return MakeFault(Fault::kBadValue, part, "row number out of range");
    std::int64_t col_counter = 0;
    for (auto c : Children(row, "c")) {
      std::int64_t r = row_counter, col;
      if (auto ref = Attr(c, "r")) {
        auto pos = ParseCoordinate(ref.value());
        if (!pos || pos->row < 1 || pos->row > kMaxRow)
          return MakeFault(Fault::kBadValue, part, std::string("bad cell reference ") + ref.value());
        r = pos->row, col = pos->col;
      } else {
        col = col_counter + 1;
        if (col > kMaxColumn) return MakeFault(Fault::kBadValue, part, "column out of range");
      }
      col_counter = col;
      if (sheet.cells_.size() >= max_cells) return MakeFault(Fault::kTooLarge, part, "more cells than max_cells");
      Cell cell;
      cell.style = StyleIndex(c);
      std::string_view type = Attr(c, "t") ? Attr(c, "t").value() : "n";
      pugi::xml_node v = Child(c, "v");
      std::string text = v ? v.text().get() : "";
      if (auto f = Child(c, "f")) {
        std::string formula = std::string("=") + f.text().get();
        auto ft = Attr(f, "t");
        if (ft && std::string_view(ft.value()) == "shared") {
          std::string si = Attr(f, "si").value();
          if (auto it = shared.find(si); it != shared.end())
            formula = it->second.At({r, col});
          else if (formula != "=")
            shared.emplace(si, FormulaShift(formula, {r, col}));
        }
        cell.value = CellValue::Formula(std::move(formula));
      } else if (!text.empty()) {
        if (type == "n") {
          auto num = CastNumber(text);
          if (!num) return MakeFault(Fault::kBadValue, part, "bad number " + text);
          cell.value = *num;
        } else if (type == "s") {
          char* end = nullptr;
          unsigned long long index = std::strtoull(text.c_str(), &end, 10);
          const std::string* s = strings && end && !*end ? strings->Get(index) : nullptr;
          if (!s) return MakeFault(Fault::kBadValue, part, "shared string index " + text + " out of range");
          cell.value = CellValue::String(*s);
        } else if (type == "b") {
          cell.value = CellValue::Bool(std::strtoll(text.c_str(), nullptr, 10) != 0);
        } else if (type == "e") {
          cell.value = CellValue::ErrorCode(text);
        } else {
          // "str", and ISO dates ("d") kept as their text.
          cell.value = CellValue::String(text);
        }
      } else if (type == "inlineStr") {
        if (auto is = Child(c, "is")) cell.value = CellValue::String(InlineText(is));
      }
      sheet.cells_[{r, col}] = std::move(cell);
    }
  }
  // Row attributes (heights, hidden, styles) stay on empty <row>s in the
  // DOM; the cells are rewritten from the index at save.
  for (auto row : Children(data, "row"))
    while (auto c = row.first_child()) row.remove_child(c);
  if (auto merges = Child(root, "mergeCells")) {
    for (auto m : Children(merges, "mergeCell")) {
      auto b = RangeBoundaries(Attr(m, "ref").value());
      if (!b || !b->min_row || !b->min_col) continue;
      sheet.merges_.push_back(*b);
    }
    root.remove_child(merges);
  }
  // openpyxl empties every cell of a merged range but its first on load.
  for (const auto& b : sheet.merges_) {
    std::uint64_t area = static_cast<std::uint64_t>(b.max_row - b.min_row + 1) * static_cast<std::uint64_t>(b.max_col - b.min_col + 1);
    if (area > max_cells) return MakeFault(Fault::kTooLarge, part, "a merged range larger than max_cells");
    for (std::int64_t r = b.min_row; r <= b.max_row; ++r)
      for (std::int64_t c = b.min_col; c <= b.max_col; ++c) {
        if (r == b.min_row && c == b.min_col) continue;
        sheet.cells_[{r, c}].value = CellValue::None();
      }
    if (sheet.cells_.size() > max_cells) return MakeFault(Fault::kTooLarge, part, "more cells than max_cells");
  }
  return sheet;
}

Sheet Sheet::New() {
  Sheet sheet;
  sheet.doc_ = std::make_shared<pugi::xml_document>();
  std::string xml = std::string("<worksheet xmlns=\"") + kMainNs + "\" xmlns:r=\"" + kRelNs +
                    "\"><sheetPr><outlinePr summaryBelow=\"1\" summaryRight=\"1\"/><pageSetUpPr/></sheetPr>"
                    "<dimension ref=\"A1:A1\"/><sheetViews><sheetView workbookViewId=\"0\"><selection "
                    "activeCell=\"A1\" sqref=\"A1\"/></sheetView></sheetViews><sheetFormatPr baseColWidth=\"8\" "
                    "defaultRowHeight=\"15\"/><sheetData/><pageMargins left=\"0.75\" right=\"0.75\" top=\"1\" "
                    "bottom=\"1\" header=\"0.5\" footer=\"0.5\"/></worksheet>";
  sheet.doc_->load_buffer(xml.data(), xml.size());
  return sheet;
}

Sheet Sheet::Clone() const {
  Sheet copy;
  copy.doc_ = std::make_shared<pugi::xml_document>();
  copy.doc_->reset(*doc_);
  copy.cells_ = cells_;
  copy.merges_ = merges_;
  return copy;
}

const Cell* Sheet::Find(std::int64_t row, std::int64_t col) const {
  auto it = cells_.find({row, col});
  return it == cells_.end() ? nullptr : &it->second;
}

std::int64_t Sheet::min_row() const { return cells_.empty() ? 1 : cells_.begin()->first.first; }
std::int64_t Sheet::max_row() const { return cells_.empty() ? 1 : cells_.rbegin()->first.first; }
std::int64_t Sheet::min_col() const {
  std::int64_t m = INT64_MAX;
  for (const auto& [k, _] : cells_) m = std::min(m, k.second);
  return cells_.empty() ? 1 : m;
}
std::int64_t Sheet::max_col() const {
  std::int64_t m = 0;
  for (const auto& [k, _] : cells_) m = std::max(m, k.second);
  return cells_.empty() ? 1 : m;
}

namespace {

// Sorted keys of the cells on or past `from` (rows or columns).
std::vector<std::pair<std::int64_t, std::int64_t>> KeysFrom(const CellMap& cells, std::int64_t from, bool rows) {
  std::vector<std::pair<std::int64_t, std::int64_t>> keys;
  for (const auto& [k, _] : cells)
    if ((rows ? k.first : k.second) >= from) keys.push_back(k);
  return keys;
}

}  // namespace

// openpyxl's _move_cells: first iter_rows(min_row)/iter_cols(min_col)
// "to make affected ranges contiguous", which creates every missing cell
// of rows min_row..max_row x columns 1..max_column (or the transpose);
// then each cell at or past the line moves by `offset`, in an order that
// never overwrites a cell still to move when inserting, and overwrites the
// deleted ones when deleting.
bool Sheet::MoveCells(std::int64_t from, std::int64_t offset, bool rows, std::uint64_t max_cells) {
  std::int64_t last = rows ? max_row() : max_col();
  std::int64_t span = rows ? max_col() : max_row();
  if (from <= last) {
    std::uint64_t add = static_cast<std::uint64_t>(last - from + 1) * static_cast<std::uint64_t>(span);
    if (add > max_cells) return false;
    for (std::int64_t a = from; a <= last; ++a)
      for (std::int64_t b = 1; b <= span; ++b) (void)(rows ? cells_[{a, b}] : cells_[{b, a}]);
    if (cells_.size() > max_cells) return false;
  }
  auto keys = KeysFrom(cells_, from, rows);
  auto by = [rows](const auto& k) { return rows ? k.first : k.second; };
  std::stable_sort(keys.begin(), keys.end(), [&](const auto& x, const auto& y) {
    return offset > 0 ? by(x) > by(y) : by(x) < by(y);
  });
  for (const auto& k : keys) {
    auto node = cells_.extract(k);
    auto to = rows ? std::make_pair(k.first + offset, k.second) : std::make_pair(k.first, k.second + offset);
    cells_.insert_or_assign(to, std::move(node.mapped()));
  }
  return true;
}

bool Sheet::InsertRows(std::int64_t idx, std::int64_t amount, std::uint64_t max_cells) {
  return MoveCells(idx, amount, true, max_cells);
}
bool Sheet::InsertCols(std::int64_t idx, std::int64_t amount, std::uint64_t max_cells) {
  return MoveCells(idx, amount, false, max_cells);
}

// openpyxl's delete_rows/delete_cols: the rows past the deleted ones move
// up over them, then the "gutter" (the last `amount` lines before the
// move, but none before idx) is cleared within min..max of the other axis.
bool Sheet::DeleteLines(std::int64_t idx, std::int64_t amount, bool rows, std::uint64_t max_cells) {
  std::int64_t max_before = rows ? max_row() : max_col();
  if (!MoveCells(idx + amount, -amount, rows, max_cells)) return false;
  std::int64_t lo = std::max(max_before + 1 - amount, idx);
  std::int64_t other_lo = rows ? min_col() : min_row(), other_hi = rows ? max_col() : max_row();
  for (auto it = cells_.begin(); it != cells_.end();) {
    auto [r, c] = it->first;
    std::int64_t line = rows ? r : c, other = rows ? c : r;
    if (line >= lo && line <= max_before && other >= other_lo && other <= other_hi)
      it = cells_.erase(it);
    else
      ++it;
  }
  return true;
}

bool Sheet::DeleteRows(std::int64_t idx, std::int64_t amount, std::uint64_t max_cells) {
  return DeleteLines(idx, amount, true, max_cells);
}
bool Sheet::DeleteCols(std::int64_t idx, std::int64_t amount, std::uint64_t max_cells) {
  return DeleteLines(idx, amount, false, max_cells);
}

std::string Sheet::Serialize() const {
  pugi::xml_document out;
  out.reset(*doc_);
  pugi::xml_node root = out.document_element();
  std::string prefix;
  if (auto colon = std::string_view(root.name()).find(':'); colon != std::string_view::npos)
    prefix = std::string(root.name()).substr(0, colon + 1);
  auto name = [&](const char* local) { return prefix + local; };

  EnsureWorksheetChild(root, "dimension");
  Child(root, "dimension").remove_attributes();
  Child(root, "dimension").append_attribute("ref") =
      cells_.empty() ? "A1:A1"
                     : (CellName({min_row(), min_col()}) + ":" + CellName({max_row(), max_col()})).c_str();

  pugi::xml_node data = EnsureWorksheetChild(root, "sheetData");
  // Rows kept from the file (attributes only), by number.
  std::map<std::int64_t, pugi::xml_node> rows;
  std::int64_t counter = 0;
  for (auto row : Children(data, "row")) {
    counter = Attr(row, "r") ? std::strtoll(Attr(row, "r").value(), nullptr, 10) : counter + 1;
    rows[counter] = row;
  }
  pugi::xml_node written = data;
  pugi::xml_document staging;
  pugi::xml_node fresh = staging.append_child("d");
  auto row_node = [&](std::int64_t r) {
    pugi::xml_node node = fresh.append_child(name("row").c_str());
    node.append_attribute("r") = std::to_string(r).c_str();
    if (auto it = rows.find(r); it != rows.end())
      for (auto a : it->second.attributes())
        if (std::string_view(a.name()) != "r" && std::string_view(a.name()) != "spans")
          node.append_attribute(a.name()) = a.value();
    return node;
  };
  std::int64_t current = 0;
  pugi::xml_node current_node;
  auto kept = rows.begin();
  for (const auto& [key, cell] : cells_) {
    auto [r, c] = key;
    // openpyxl's write_row skips a cell with no value and no style.
    if (cell.value.is_none() && cell.style == 0) continue;
    for (; kept != rows.end() && kept->first < r; ++kept) row_node(kept->first);
    if (r != current) {
      current = r;
      current_node = row_node(r);
      if (kept != rows.end() && kept->first == r) ++kept;
    }
    pugi::xml_node cn = current_node.append_child(name("c").c_str());
    cn.append_attribute("r") = CellName({r, c}).c_str();
    if (cell.style) cn.append_attribute("s") = std::to_string(cell.style).c_str();
    const CellValue& v = cell.value;
    switch (v.kind) {
      case CellValue::Kind::kNone: cn.append_attribute("t") = "n"; break;
      case CellValue::Kind::kInt:
      case CellValue::Kind::kFloat:
        cn.append_attribute("t") = "n";
        cn.append_child(name("v").c_str()).text() = NumberText(v.number()).c_str();
        break;
      case CellValue::Kind::kBool:
        cn.append_attribute("t") = "b";
        cn.append_child(name("v").c_str()).text() = v.b ? "1" : "0";
        break;
      case CellValue::Kind::kError:
        cn.append_attribute("t") = "e";
        cn.append_child(name("v").c_str()).text() = v.s.c_str();
        break;
      case CellValue::Kind::kFormula:
        cn.append_child(name("f").c_str()).text() = v.s.substr(1).c_str();
        cn.append_child(name("v").c_str());
        break;
      case CellValue::Kind::kString: {
        if (v.s.empty()) {  // openpyxl writes "" as an empty cell
          cn.append_attribute("t") = "inlineStr";
          break;
        }
        cn.append_attribute("t") = "inlineStr";
        pugi::xml_node t = cn.append_child(name("is").c_str()).append_child(name("t").c_str());
        t.text() = v.s.c_str();
        std::string_view s = v.s;
        auto space = [](char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r'; };
        if (s.find_first_not_of(" \t\n\r") != std::string_view::npos && (space(s.front()) || space(s.back())))
          t.append_attribute("xml:space") = "preserve";
        break;
      }
    }
  }
  for (; kept != rows.end(); ++kept) row_node(kept->first);
  while (auto child = written.first_child()) written.remove_child(child);
  for (auto child = fresh.first_child(); child; child = child.next_sibling()) written.append_copy(child);

  if (!merges_.empty()) {
    pugi::xml_node m = EnsureWorksheetChild(root, "mergeCells");
    m.append_attribute("count") = std::to_string(merges_.size()).c_str();
    for (const auto& b : merges_)
      m.append_child(name("mergeCell").c_str()).append_attribute("ref") = RangeText(b).c_str();
  }
  return ooxml::WriteXml(out);
}

}  // namespace sbx::servers::excel
