// format_range (formatting.py) and create_table (tables.py).
#include <algorithm>
#include <random>
#include <regex>
#include <set>

#include "ooxml/relationships.h"
#include "ooxml/xml.h"
#include "python_text/repr.h"
#include "servers/excel/cell_python.h"
#include "servers/excel/py_error.h"
#include "servers/excel/tools.h"

namespace sbx::servers::excel {
namespace {

constexpr const char* kTableRelType = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/table";
constexpr const char* kTableType = "application/vnd.openxmlformats-officedocument.spreadsheetml.table+xml";

bool IsHex(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  });
}

// openpyxl's Color(rgb=...): 6 or 8 hex digits, 6 get "00" in front.
std::string Argb(const std::string& value) {
  if (!IsHex(value) || (value.size() != 6 && value.size() != 8)) throw PyError("ValueError", "Colors must be aRGB hex values");
  return value.size() == 6 ? "00" + value : value;
}

// Upstream's colour prefixing: "FF" added unless the text starts with it.
std::string Prefixed(const std::string& c) { return c.rfind("FF", 0) == 0 ? c : "FF" + c; }

const std::set<std::string>& BorderStyles() {
  static const std::set<std::string> s = {"dashDot", "dashDotDot", "dashed", "dotted", "double", "hair", "medium",
                                          "mediumDashDot", "mediumDashDotDot", "mediumDashed", "slantDashDot",
                                          "thick", "thin"};
  return s;
}
const std::set<std::string>& Horizontals() {
  static const std::set<std::string> s = {"general", "left", "center", "right", "fill", "justify", "centerContinuous",
                                          "distributed"};
  return s;
}

// openpyxl's Set descriptor error: "Value must be one of {...}".
std::string OneOf(const std::set<std::string>& values) {
  std::string out = "Value must be one of {";
  bool first = true;
  for (const auto& v : values) out += (first ? "'" : ", '") + v + "'", first = false;
  return out + "}";
}

bool Truthy(const Json& v) {
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_number()) return v.get<double>() != 0;
  if (v.is_string()) return !v.get<std::string>().empty();
  if (v.is_array() || v.is_object()) return !v.empty();
  return false;
}

std::string Xml(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

std::string ValueText(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<std::int64_t>());
  if (v.is_number()) return NumberText(v.get<double>());
  return py::Str(py::FromJson(v));
}

// The <cfRule> (without priority) one of openpyxl's rule builders makes
// from `params`, plus the dxf it needs ("" for none).
struct Rule {
  std::string xml_head, xml_body, dxf;
};

Rule BuildRule(const std::string& type, const Json& params) {
  auto check_keys = [&](const char* fn, std::initializer_list<const char*> known) {
    for (const auto& [k, _] : params.items())
      if (std::find_if(known.begin(), known.end(), [&](const char* n) { return k == n; }) == known.end())
        throw PyError("TypeError", std::string(fn) + "() got an unexpected keyword argument '" + k + "'");
  };
  auto formulas = [&]() {
    std::string out;
    if (auto it = params.find("formula"); it != params.end() && !it->is_null()) {
      if (it->is_array())
        for (const auto& f : *it) out += "<formula>" + Xml(ValueText(f)) + "</formula>";
      else
        for (char c : ValueText(*it)) out += "<formula>" + Xml(std::string(1, c)) + "</formula>";
    }
    return out;
  };
  auto stop = [&]() { return Truthy(params.value("stopIfTrue", Json(false))) ? " stopIfTrue=\"1\"" : ""; };
  auto style_objects = [&](bool fill_converted) {
    for (const char* key : {"font", "border", "fill"}) {
      auto it = params.find(key);
      if (it == params.end() || it->is_null()) continue;
      if (std::string(key) == "fill" && fill_converted) continue;
      std::string cls = std::string(key) == "font" ? "openpyxl.styles.fonts.Font"
                        : std::string(key) == "border" ? "openpyxl.styles.borders.Border"
                                                       : "openpyxl.styles.fills.Fill";
      throw PyError("TypeError", "expected <class '" + cls + "'>");
    }
  };
  auto cfvo = [](const Json& t, const Json& v) {
    std::string s = "<cfvo type=\"" + Xml(ValueText(t)) + "\"";
    if (!v.is_null()) s += " val=\"" + Xml(ValueText(v)) + "\"";
    return s + "/>";
  };
  Rule r;
  if (type == "cell_is") {
    check_keys("CellIsRule", {"operator", "formula", "stopIfTrue", "font", "border", "fill"});
    std::string op = params.value("operator", Json(nullptr)).is_string() ? params["operator"].get<std::string>() : "";
    static const std::map<std::string, std::string> symbols = {
        {">", "greaterThan"}, {">=", "greaterThanOrEqual"}, {"<", "lessThan"}, {"<=", "lessThanOrEqual"},
        {"=", "equal"},       {"==", "equal"},               {"!=", "notEqual"}};
    if (auto it = symbols.find(op); it != symbols.end()) op = it->second;
    static const std::set<std::string> ops = {"between", "notBetween", "equal", "notEqual", "greaterThan",
                                              "lessThan", "greaterThanOrEqual", "lessThanOrEqual", "beginsWith",
                                              "endsWith", "containsText", "notContains"};
    if (!op.empty() && !ops.count(op)) throw PyError("ValueError", OneOf(ops));
    style_objects(true);
    r.xml_head = "<cfRule type=\"cellIs\"" + std::string(op.empty() ? "" : " operator=\"" + op + "\"") + stop();
    r.xml_body = formulas();
    if (params.contains("fill") && params["fill"].is_string()) r.dxf = "<dxf>" + params["fill"].get<std::string>() + "</dxf>";
  } else if (type == "formula") {
    check_keys("FormulaRule", {"formula", "stopIfTrue", "font", "border", "fill"});
    style_objects(false);
    r.xml_head = "<cfRule type=\"expression\"" + std::string(stop());
    r.xml_body = formulas();
  } else if (type == "color_scale") {
    check_keys("ColorScaleRule", {"start_type", "start_value", "start_color", "mid_type", "mid_value", "mid_color",
                                  "end_type", "end_value", "end_color"});
    std::string cfvos, colors;
    for (const char* p : {"start", "mid", "end"}) {
      std::string t = std::string(p) + "_type";
      if (!params.contains(t) || params[t].is_null()) continue;
      cfvos += cfvo(params[t], params.value(std::string(p) + "_value", Json(nullptr)));
      Json c = params.value(std::string(p) + "_color", Json(nullptr));
      if (!c.is_null()) colors += "<color rgb=\"" + Argb(ValueText(c)) + "\"/>";
    }
    r.xml_head = "<cfRule type=\"colorScale\"";
    r.xml_body = "<colorScale>" + cfvos + colors + "</colorScale>";
  } else if (type == "data_bar") {
    check_keys("DataBarRule", {"start_type", "start_value", "end_type", "end_value", "color", "showValue",
                               "minLength", "maxLength"});
    std::string body = "<dataBar";
    for (const char* a : {"minLength", "maxLength"})
      if (params.contains(a) && !params[a].is_null()) body += std::string(" ") + a + "=\"" + Xml(ValueText(params[a])) + "\"";
    if (params.contains("showValue") && !params["showValue"].is_null())
      body += std::string(" showValue=\"") + (Truthy(params["showValue"]) ? "1" : "0") + "\"";
    body += ">";
    if (params.contains("start_type") && !params["start_type"].is_null())
      body += cfvo(params["start_type"], params.value("start_value", Json(nullptr)));
    if (params.contains("end_type") && !params["end_type"].is_null())
      body += cfvo(params["end_type"], params.value("end_value", Json(nullptr)));
    if (params.contains("color") && !params["color"].is_null()) body += "<color rgb=\"" + Argb(ValueText(params["color"])) + "\"/>";
    r.xml_head = "<cfRule type=\"dataBar\"";
    r.xml_body = body + "</dataBar>";
  } else if (type == "icon_set") {
    check_keys("IconSetRule", {"icon_style", "type", "values", "showValue", "percent", "reverse"});
    std::string body = "<iconSet";
    if (params.contains("icon_style") && !params["icon_style"].is_null())
      body += " iconSet=\"" + Xml(ValueText(params["icon_style"])) + "\"";
    for (const char* a : {"showValue", "percent", "reverse"})
      if (params.contains(a) && !params[a].is_null())
        body += std::string(" ") + a + "=\"" + (Truthy(params[a]) ? "1" : "0") + "\"";
    body += ">";
    if (params.contains("values") && params["values"].is_array())
      for (const auto& v : params["values"]) body += cfvo(params.value("type", Json("percent")), v);
    r.xml_head = "<cfRule type=\"iconSet\"";
    r.xml_body = body + "</iconSet>";
  } else {
    throw PyError("FormattingError", "Invalid conditional format type: " + type);
  }
  return r;
}

// The highest cfRule priority in the sheet, so new rules come after it.
int MaxPriority(pugi::xml_node root) {
  int max = 0;
  for (auto cf : ooxml::Children(root, "conditionalFormatting"))
    for (auto rule : ooxml::Children(cf, "cfRule"))
      max = std::max(max, ooxml::Attr(rule, "priority").as_int());
  return max;
}

void AddConditionalFormat(Workbook& wb, Sheet& ws, const std::string& sqref, const Rule& rule) {
  std::string head = rule.xml_head;
  if (!rule.dxf.empty()) {
    auto id = wb.styles().InternDxf(rule.dxf);
    if (!id) throw PyError("ValueError", id.error().message);
    head += " dxfId=\"" + std::to_string(*id) + "\"";
  }
  head += " priority=\"" + std::to_string(MaxPriority(ws.root()) + 1) + "\"";
  std::string xml = "<conditionalFormatting sqref=\"" + Xml(sqref) + "\">" + head + ">" + rule.xml_body +
                    "</cfRule></conditionalFormatting>";
  pugi::xml_document frag;
  if (!frag.load_buffer(xml.data(), xml.size())) throw PyError("ValueError", "bad conditional format");
  pugi::xml_node at = EnsureWorksheetChild(ws.root(), "conditionalFormatting");
  // Placed after the last existing block (EnsureWorksheetChild gave the first or a new empty one).
  pugi::xml_node last = at;
  while (last.next_sibling() && ooxml::LocalName(last.next_sibling()) == "conditionalFormatting") last = last.next_sibling();
  ws.root().insert_copy_after(frag.document_element(), last);
  if (!at.first_child() && !at.first_attribute()) ws.root().remove_child(at);
}

}  // namespace

std::string FormatRange(const Context& ctx, const Json& args) {
  std::string path = FullPath(Str(args, "filepath"));
  std::string sheet_name = Str(args, "sheet_name");
  std::string start_cell = Str(args, "start_cell"), end_cell = OptStr(args, "end_cell");
  try {
    if (!ValidateCellReference(start_cell)) throw PyError("ValidationError", "Invalid start cell reference: " + start_cell);
    if (!end_cell.empty() && !ValidateCellReference(end_cell))
      throw PyError("ValidationError", "Invalid end cell reference: " + end_cell);
    // get_or_create_workbook: a missing file becomes a new workbook, saved at once.
    Workbook wb = [&] {
      try {
        return LoadBook(ctx, path);
      } catch (const PyError& e) {
        if (e.cls() != "FileNotFoundError") throw;
        Workbook fresh = Workbook::New();
        fresh.Rename("Sheet", "Sheet1");
        SaveBook(ctx, fresh, path, true);
        return LoadBook(ctx, path);
      }
    }();
    Sheet* ws = wb.Find(sheet_name);
    if (!ws) throw PyError("ValidationError", "Sheet '" + sheet_name + "' not found");
    auto parsed = ParseCellRange(start_cell, end_cell);
    if (!parsed) throw PyError("ValidationError", "Invalid cell range: " + parsed.error().message);
    CellPos start = parsed->start, end = parsed->end ? *parsed->end : parsed->start;

    ooxml::FontSpec font;
    font.bold = Bool(args, "bold");
    font.italic = Bool(args, "italic");
    if (Bool(args, "underline")) font.underline = "single";
    if (args.contains("font_size") && args["font_size"].is_number()) font.size = static_cast<double>(Int(args, "font_size"));
    if (args.contains("font_color") && args["font_color"].is_string()) {
      try {
        font.color = Argb(Prefixed(args["font_color"].get<std::string>()));
      } catch (const PyError& e) {
        throw PyError("FormattingError", "Invalid font color: " + e.text());
      }
    }
    std::optional<std::string> fill;
    if (args.contains("bg_color") && args["bg_color"].is_string()) {
      try {
        std::string c = Argb(Prefixed(args["bg_color"].get<std::string>()));
        fill = ooxml::FillSpec{"solid", c, c}.ToXml();
      } catch (const PyError& e) {
        throw PyError("FormattingError", "Invalid background color: " + e.text());
      }
    }
    std::optional<std::string> border;
    if (args.contains("border_style") && args["border_style"].is_string()) {
      try {
        std::string style = args["border_style"].get<std::string>();
        std::string color = OptStr(args, "border_color");
        if (color.empty()) color = "000000";
        color = Argb(Prefixed(color));
        if (!BorderStyles().count(style)) throw PyError("ValueError", OneOf(BorderStyles()));
        ooxml::BorderSide side{style, color};
        ooxml::BorderSpec spec;
        spec.left = spec.right = spec.top = spec.bottom = side;
        border = spec.ToXml();
      } catch (const PyError& e) {
        throw PyError("FormattingError", "Invalid border settings: " + e.text());
      }
    }
    std::optional<std::string> align;
    std::string alignment = OptStr(args, "alignment");
    bool has_alignment = args.contains("alignment") && args["alignment"].is_string();
    if (has_alignment || Bool(args, "wrap_text")) {
      if (has_alignment && !Horizontals().count(alignment))
        throw PyError("FormattingError", "Invalid alignment settings: " + OneOf(Horizontals()));
      ooxml::AlignmentSpec spec;
      spec.horizontal = alignment;
      spec.vertical = "center";
      spec.wrap_text = Bool(args, "wrap_text");
      align = spec.ToXml();
    }
    std::optional<std::string> protect;
    if (args.contains("protection") && args["protection"].is_object()) {
      bool locked = true, hidden = false;
      for (const auto& [k, v] : args["protection"].items()) {
        if (k == "locked") locked = Truthy(v);
        else if (k == "hidden") hidden = Truthy(v);
        else throw PyError("TypeError", "Protection.__init__() got an unexpected keyword argument '" + k + "'");
      }
      protect = std::string("<protection locked=\"") + (locked ? "1" : "0") + "\" hidden=\"" + (hidden ? "1" : "0") + "\"/>";
    }
    std::optional<std::string> number_format;
    if (args.contains("number_format") && args["number_format"].is_string()) number_format = args["number_format"].get<std::string>();

    auto& styles = wb.styles();
    auto font_id = styles.InternFont(font.ToXml());
    if (!font_id) throw PyError("ValueError", font_id.error().message);
    std::optional<std::uint32_t> fill_id, border_id, numfmt_id;
    if (fill) fill_id = *styles.InternFill(*fill);
    if (border) border_id = *styles.InternBorder(*border);
    if (number_format) numfmt_id = styles.InternNumFmt(*number_format);
    if (end.row >= start.row && end.col >= start.col &&
        static_cast<std::uint64_t>(end.row - start.row + 1) * static_cast<std::uint64_t>(end.col - start.col + 1) > ctx.options.max_cells)
      throw PyError("FormattingError", "Range too large for this deployment's limit of " + std::to_string(ctx.options.max_cells) + " cells");
    std::map<std::uint32_t, std::uint32_t> restyled;  // old xf -> new xf
    for (std::int64_t r = start.row; r <= end.row; ++r)
      for (std::int64_t c = start.col; c <= end.col; ++c) {
        if (r > kMaxRow) throw PyError("ValueError", "Row numbers must be between 1 and 1048576. Row number supplied was " + std::to_string(r));
        Cell& cell = ws->At(r, c);
        auto it = restyled.find(cell.style);
        if (it == restyled.end()) {
          const auto& xfs = styles.cell_xfs();
          ooxml::Xf xf = cell.style < xfs.size() ? xfs[cell.style] : ooxml::Xf{};
          xf.font_id = *font_id;
          xf.SetAttribute("applyFont", "1");
          if (fill_id) xf.fill_id = *fill_id, xf.SetAttribute("applyFill", "1");
          if (border_id) xf.border_id = *border_id, xf.SetAttribute("applyBorder", "1");
          if (align) xf.alignment = *align, xf.SetAttribute("applyAlignment", "1");
          if (protect) xf.protection = *protect, xf.SetAttribute("applyProtection", "1");
          if (numfmt_id) xf.num_fmt_id = *numfmt_id, xf.SetAttribute("applyNumberFormat", "1");
          it = restyled.emplace(cell.style, styles.InternCellXf(xf)).first;
        }
        cell.style = it->second;
      }
    if (wb.CellCount() > ctx.options.max_cells)
      throw PyError("FormattingError", "Too many cells for this deployment's limit of " + std::to_string(ctx.options.max_cells));
    if (Bool(args, "merge_cells") && !end_cell.empty()) {
      std::string text = start_cell + ":" + end_cell;
      auto b = RangeBoundaries(text);
      if (!b) throw PyError("FormattingError", "Failed to merge cells: " + text + " is not a valid coordinate or range");
      bool held = false;
      for (const auto& m : ws->merges())
        held = held || (m.min_row <= b->min_row && b->max_row <= m.max_row && m.min_col <= b->min_col && b->max_col <= m.max_col);
      if (!held) ws->merges().push_back(*b);
      for (std::int64_t r = b->min_row; r <= b->max_row; ++r)
        for (std::int64_t c = b->min_col; c <= b->max_col; ++c)
          if (r != b->min_row || c != b->min_col) ws->At(r, c).value = CellValue::None();
    }
    if (args.contains("conditional_format") && args["conditional_format"].is_object()) {
      const Json& cf = args["conditional_format"];
      std::string sqref = end_cell.empty() ? start_cell : start_cell + ":" + end_cell;
      Json type = cf.value("type", Json(nullptr));
      if (!Truthy(type)) throw PyError("FormattingError", "Conditional format type not specified");
      Json params = cf.value("params", Json::object());
      std::string rule_type = ValueText(type);
      if (rule_type == "cell_is" && params.is_object() && params.contains("fill") && params["fill"].is_object()) {
        std::string color = params["fill"].value("fgColor", Json("FFC7CE")).is_string()
                                ? params["fill"].value("fgColor", std::string("FFC7CE")) : "FFC7CE";
        try {
          std::string c = Argb(Prefixed(color));
          params["fill"] = ooxml::FillSpec{"solid", c, c}.ToXml();
        } catch (const PyError& e) {
          throw PyError("FormattingError", "Invalid conditional format fill color: " + e.text());
        }
      }
      try {
        if (!params.is_object()) throw PyError("TypeError", "argument after ** must be a mapping, not " + std::string(params.type_name()));
        Rule rule = BuildRule(rule_type, params);
        if (!RangeBoundaries(sqref)) throw PyError("ValueError", sqref + " is not a valid coordinate or range");
        AddConditionalFormat(wb, *ws, sqref, rule);
      } catch (const PyError& e) {
        if (e.cls() == "FormattingError") throw PyError("FormattingError", "Failed to apply conditional formatting: " + e.text());
        throw PyError("FormattingError", "Failed to apply conditional formatting: " + e.text());
      }
    }
    SaveBook(ctx, wb, path);
    return std::string("Range formatted successfully");
  } catch (const PyError& e) {
    if (e.cls() == "ValidationError" || e.cls() == "FormattingError") throw;
    throw PyError("FormattingError", e.text());
  }
}

void AddTable(Workbook& wb, const std::string& sheet_name, const std::string& data_range, const std::string& table_name,
              const std::string& table_style, bool column_stripes) {
  Sheet* ws = wb.Find(sheet_name);
  auto& pkg = wb.package();
  // Table names are unique in the workbook, ignoring case.
  int highest_id = 0;
  std::string lower = table_name;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const auto& name : pkg.Names()) {
    if (name.rfind("/xl/tables/", 0) != 0) continue;
    auto bytes = pkg.Bytes(name);
    if (!bytes) continue;
    auto doc = ooxml::ParseXml(*bytes, name);
    if (!doc) continue;
    auto root = doc->document_element();
    highest_id = std::max(highest_id, ooxml::Attr(root, "id").as_int());
    std::string other = ooxml::Attr(root, "displayName").value();
    std::transform(other.begin(), other.end(), other.begin(), [](unsigned char c) { return std::tolower(c); });
    if (other == lower) throw PyError("ValueError", "Table with name " + table_name + " already exists");
  }
  // Table.ref's descriptor pattern, checked when the Table is made.
  static const std::regex kRef(R"(^[$]?([A-Za-z]{1,3})[$]?(\d+)(:[$]?([A-Za-z]{1,3})[$]?(\d+)?)?$|^[A-Za-z]{1,3}:[A-Za-z]{1,3}$)");
  if (!std::regex_match(data_range, kRef))
    throw PyError("ValueError", R"(Value does not match pattern ^[$]?([A-Za-z]{1,3})[$]?(\d+)(:[$]?([A-Za-z]{1,3})[$]?(\d+)?)?$|^[A-Za-z]{1,3}:[A-Za-z]{1,3}$)");
  auto b = RangeBoundaries(data_range);
  if (!b || !b->min_row || !b->min_col) throw PyError("ValueError", data_range + " is not a valid coordinate or range");
  int id = highest_id + 1;
  std::string part;
  for (int n = id;; ++n) {
    part = "/xl/tables/table" + std::to_string(n) + ".xml";
    if (!pkg.Has(part)) break;
  }
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>"
                    "<table xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" id=\"" +
                    std::to_string(id) + "\" name=\"" + Xml(table_name) + "\" displayName=\"" + Xml(table_name) +
                    "\" ref=\"" + Xml(data_range) + "\"><autoFilter ref=\"" + Xml(data_range) + "\"/><tableColumns count=\"" +
                    std::to_string(b->max_col - b->min_col + 1) + "\">";
  // The column names openpyxl's writer takes: str() of each header cell.
  for (std::int64_t c = b->min_col; c <= b->max_col; ++c) {
    const Cell* head = ws->Find(b->min_row, c);
    std::string name = py::Str(head ? ToPython(head->value, wb.IsDateStyle(head->style)) : py::Value(py::None{}));
    xml += "<tableColumn id=\"" + std::to_string(c - b->min_col + 1) + "\" name=\"" + Xml(name) + "\"/>";
  }
  xml += "</tableColumns><tableStyleInfo name=\"" + Xml(table_style) +
         "\" showFirstColumn=\"0\" showLastColumn=\"0\" showRowStripes=\"1\" showColumnStripes=\"" +
         (column_stripes ? "1" : "0") + "\"/></table>";
  std::string sheet_part = wb.PartOf(sheet_name);
  std::string rels_name = ooxml::RelsPartName(sheet_part);
  ooxml::Relationships rels;
  if (pkg.Has(rels_name)) {
    auto parsed = ooxml::Relationships::Parse(*pkg.Bytes(rels_name), rels_name);
    if (!parsed) throw PyError("ValueError", parsed.error().message);
    rels = std::move(*parsed);
  }
  std::string rid = rels.Add(kTableRelType, ooxml::RelativeTarget(sheet_part, part));
  if (auto st = pkg.Set(part, xml); !st) throw PyError("ValueError", st.error().message);
  if (auto st = pkg.Set(rels_name, rels.Serialize()); !st) throw PyError("ValueError", st.error().message);
  wb.content_types().SetOverride(part, kTableType);
  pugi::xml_node parts = EnsureWorksheetChild(ws->root(), "tableParts");
  std::string prefix;
  if (auto colon = std::string_view(ws->root().name()).find(':'); colon != std::string_view::npos)
    prefix = std::string(ws->root().name()).substr(0, colon + 1);
  pugi::xml_node tp = parts.append_child((prefix + "tablePart").c_str());
  tp.append_attribute("r:id") = rid.c_str();
  if (!ws->root().attribute("xmlns:r"))
    ws->root().append_attribute("xmlns:r") = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
  std::size_t count = ooxml::Children(parts, "tablePart").size();
  if (auto a = parts.attribute("count")) a.set_value(std::to_string(count).c_str());
  else parts.append_attribute("count") = std::to_string(count).c_str();
}

std::string RandomHex8() {
  std::random_device rd;
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08x", rd());
  return hex;
}

std::string CreateTable(const Context& ctx, const Json& args) {
  std::string path = FullPath(Str(args, "filepath"));
  std::string sheet_name = Str(args, "sheet_name"), data_range = Str(args, "data_range");
  std::string table_name = OptStr(args, "table_name"), table_style = Str(args, "table_style");
  try {
    Workbook wb = LoadBook(ctx, path);
    if (!wb.Find(sheet_name)) throw PyError("DataError", "Sheet '" + sheet_name + "' not found.");
    if (table_name.empty()) table_name = "Table_" + RandomHex8();
    AddTable(wb, sheet_name, data_range, table_name, table_style, false);
    SaveBook(ctx, wb, path);
    return "Successfully created table '" + table_name + "' in sheet '" + sheet_name + "'.";
  } catch (const PyError& e) {
    if (e.cls() == "DataError") throw;
    throw PyError("DataError", e.text());
  }
}

}  // namespace sbx::servers::excel
