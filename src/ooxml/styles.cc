#include "ooxml/styles.h"

#include <charconv>
#include <cstdio>

#include "ooxml/xml.h"

namespace sbx::ooxml {
namespace {

constexpr const char* kMainNs = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";

struct StringWriter : pugi::xml_writer {
  std::string out;
  void write(const void* data, size_t size) override { out.append(static_cast<const char*>(data), size); }
};

// Drops whitespace-only text and namespace declarations below `node`, then
// prints it raw: the canonical form that Intern* compares.
std::string Canonical(pugi::xml_node node) {
  // Iterative: the depth bound of ParseXml already holds, but no recursion is needed.
  std::vector<pugi::xml_node> stack{node};
  while (!stack.empty()) {
    pugi::xml_node n = stack.back();
    stack.pop_back();
    for (pugi::xml_attribute a = n.first_attribute(); a;) {
      pugi::xml_attribute next = a.next_attribute();
      std::string_view name = a.name();
      if (name == "xmlns" || name.starts_with("xmlns:")) n.remove_attribute(a);
      a = next;
    }
    for (pugi::xml_node c = n.first_child(); c;) {
      pugi::xml_node next = c.next_sibling();
      if (c.type() == pugi::node_pcdata && n.first_child() != n.last_child()) {
        std::string_view v = c.value();
        if (v.find_first_not_of(" \t\r\n") == std::string_view::npos) n.remove_child(c);
      } else if (c.type() == pugi::node_comment || c.type() == pugi::node_pi) {
        n.remove_child(c);
      } else if (c.type() == pugi::node_element) {
        stack.push_back(c);
      }
      c = next;
    }
  }
  StringWriter w;
  node.print(w, "", pugi::format_raw, pugi::encoding_utf8);
  return std::move(w.out);
}

std::vector<std::string> CanonicalChildren(pugi::xml_node parent) {
  std::vector<std::string> out;
  for (pugi::xml_node c = parent.first_child(); c; c = c.next_sibling())
    if (c.type() == pugi::node_element) out.push_back(Canonical(c));
  return out;
}

bool ParseUint(std::string_view s, std::uint32_t& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size() && !s.empty();
}

Result<Xf> ParseXf(pugi::xml_node n, std::string_view part) {
  Xf xf;
  for (pugi::xml_attribute a = n.first_attribute(); a; a = a.next_attribute()) {
    std::string_view name = a.name();
    std::uint32_t* id = name == "numFmtId" ? &xf.num_fmt_id
                        : name == "fontId" ? &xf.font_id
                        : name == "fillId" ? &xf.fill_id
                        : name == "borderId" ? &xf.border_id
                                             : nullptr;
    if (id != nullptr || name == "xfId") {
      std::uint32_t v = 0;
      if (!ParseUint(a.value(), v))
        return MakeFault(Fault::kBadValue, part, "an <xf> has " + std::string(name) + "=\"" + a.value() + "\", not a number");
      if (id != nullptr) *id = v;
      else xf.xf_id = v;
      continue;
    }
    xf.attributes.emplace_back(std::string(name), a.value());
  }
  if (pugi::xml_node al = Child(n, "alignment")) xf.alignment = Canonical(al);
  if (pugi::xml_node pr = Child(n, "protection")) xf.protection = Canonical(pr);
  return xf;
}

std::string XfXml(const Xf& xf) {
  std::string s = "<xf numFmtId=\"" + std::to_string(xf.num_fmt_id) + "\" fontId=\"" + std::to_string(xf.font_id) +
                  "\" fillId=\"" + std::to_string(xf.fill_id) + "\" borderId=\"" + std::to_string(xf.border_id) + "\"";
  for (const auto& [k, v] : xf.attributes) s += " " + k + "=\"" + EscapeXml(v) + "\"";
  if (xf.xf_id) s += " xfId=\"" + std::to_string(*xf.xf_id) + "\"";
  if (xf.alignment.empty() && xf.protection.empty()) return s + "/>";
  return s + ">" + xf.alignment + xf.protection + "</xf>";
}

std::string List(std::string_view tag, const std::vector<std::string>& items) {
  std::string s = "<" + std::string(tag) + " count=\"" + std::to_string(items.size()) + "\"";
  if (items.empty()) return s + "/>";
  s += ">";
  for (const auto& i : items) s += i;
  return s + "</" + std::string(tag) + ">";
}

std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

std::string ColorXml(std::string_view tag, std::string_view argb) {
  return "<" + std::string(tag) + " rgb=\"" + EscapeXml(argb) + "\"/>";
}

std::string Val(std::string_view tag, std::string_view v) {
  return "<" + std::string(tag) + " val=\"" + EscapeXml(v) + "\"/>";
}

std::uint32_t InternIn(std::vector<std::string>& list, std::string item) {
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i] == item) return static_cast<std::uint32_t>(i);
  list.push_back(std::move(item));
  return static_cast<std::uint32_t>(list.size() - 1);
}

// The stylesheet openpyxl 3.0 writes for a new workbook: one Calibri 11
// font, the two fills every reader expects (none, gray125), an empty
// border, the Normal style, and the legacy indexed color palette.
constexpr const char* kPalette[] = {
    "00000000", "00FFFFFF", "00FF0000", "0000FF00", "000000FF", "00FFFF00", "00FF00FF", "0000FFFF",
    "00000000", "00FFFFFF", "00FF0000", "0000FF00", "000000FF", "00FFFF00", "00FF00FF", "0000FFFF",
    "00800000", "00008000", "00000080", "00808000", "00800080", "00008080", "00C0C0C0", "00808080",
    "009999FF", "00993366", "00FFFFCC", "00CCFFFF", "00660066", "00FF8080", "000066CC", "00CCCCFF",
    "00000080", "00FF00FF", "00FFFF00", "0000FFFF", "00800080", "00800000", "00008080", "000000FF",
    "0000CCFF", "00CCFFFF", "00CCFFCC", "00FFFF99", "0099CCFF", "00FF99CC", "00CC99FF", "00FFCC99",
    "003366FF", "0033CCCC", "0099CC00", "00FFCC00", "00FF9900", "00FF6600", "00666699", "00969696",
    "00003366", "00339966", "00003300", "00333300", "00993300", "00993366", "00333399", "00333333"};

}  // namespace

void Xf::SetAttribute(std::string_view name, std::string_view value) {
  for (auto& [k, v] : attributes)
    if (k == name) {
      v = std::string(value);
      return;
    }
  attributes.emplace_back(std::string(name), std::string(value));
}

const std::string* Xf::Attribute(std::string_view name) const {
  for (const auto& [k, v] : attributes)
    if (k == name) return &v;
  return nullptr;
}

std::string FontSpec::ToXml() const {
  // Element order as openpyxl writes it (and CT_Font allows any order).
  std::string s = "<font>";
  if (!name.empty()) s += Val("name", name);
  if (family) s += Val("family", std::to_string(*family));
  if (bold) s += Val("b", "1");
  if (italic) s += Val("i", "1");
  if (strike) s += Val("strike", "1");
  if (!color.empty()) s += ColorXml("color", color);
  else if (theme_color) s += "<color theme=\"" + std::to_string(*theme_color) + "\"/>";
  if (size) s += Val("sz", Number(*size));
  if (!underline.empty()) s += Val("u", underline);
  if (!vert_align.empty()) s += Val("vertAlign", vert_align);
  if (!scheme.empty()) s += Val("scheme", scheme);
  return s + "</font>";
}

std::string FillSpec::ToXml() const {
  std::string s = "<fill><patternFill";
  if (!pattern.empty()) s += " patternType=\"" + EscapeXml(pattern) + "\"";
  if (fg_color.empty() && bg_color.empty()) return s + "/></fill>";
  s += ">";
  if (!fg_color.empty()) s += ColorXml("fgColor", fg_color);
  if (!bg_color.empty()) s += ColorXml("bgColor", bg_color);
  return s + "</patternFill></fill>";
}

std::string BorderSpec::ToXml() const {
  auto side = [](std::string_view tag, const BorderSide& b) {
    std::string s = "<" + std::string(tag);
    if (b.style.empty()) return s + "/>";
    s += " style=\"" + EscapeXml(b.style) + "\"";
    if (b.color.empty()) return s + "/>";
    return s + ">" + ColorXml("color", b.color) + "</" + std::string(tag) + ">";
  };
  return "<border>" + side("left", left) + side("right", right) + side("top", top) + side("bottom", bottom) +
         side("diagonal", diagonal) + "</border>";
}

std::string AlignmentSpec::ToXml() const {
  std::string s;
  if (!horizontal.empty()) s += " horizontal=\"" + EscapeXml(horizontal) + "\"";
  if (!vertical.empty()) s += " vertical=\"" + EscapeXml(vertical) + "\"";
  if (text_rotation) s += " textRotation=\"" + std::to_string(*text_rotation) + "\"";
  if (wrap_text) s += " wrapText=\"1\"";
  if (shrink_to_fit) s += " shrinkToFit=\"1\"";
  if (indent) s += " indent=\"" + std::to_string(*indent) + "\"";
  return s.empty() ? std::string() : "<alignment" + s + "/>";
}

std::string DxfSpec::ToXml() const { return "<dxf>" + font + num_fmt + fill + border + "</dxf>"; }

Result<std::string> CanonicalFragment(std::string_view xml) {
  auto doc = ParseXml(xml, "style fragment");
  if (!doc.ok()) return doc.error();
  pugi::xml_node root = doc->document_element();
  for (pugi::xml_node c = doc->first_child(); c; c = c.next_sibling())
    if (c.type() == pugi::node_element && c != root)
      return MakeFault(Fault::kBadXml, "style fragment", "more than one element");
  return Canonical(root);
}

Result<Styles> Styles::Parse(std::string_view xml, const Limits& limits, std::string_view part) {
  auto doc = ParseXml(xml, part, limits);
  if (!doc.ok()) return doc.error();
  pugi::xml_node root = doc->document_element();
  if (LocalName(root) != "styleSheet")
    return MakeFault(Fault::kBadValue, part, "the root element is <" + std::string(root.name()) + ">, not <styleSheet>");
  Styles s;
  for (pugi::xml_attribute a = root.first_attribute(); a; a = a.next_attribute())
    s.root_attributes_.emplace_back(a.name(), a.value());
  for (pugi::xml_node c = root.first_child(); c; c = c.next_sibling()) {
    if (c.type() != pugi::node_element) continue;
    std::string_view local = LocalName(c);
    if (local == "numFmts") {
      for (pugi::xml_node n : Children(c, "numFmt")) {
        NumFmt f;
        if (!ParseUint(n.attribute("numFmtId").value(), f.id))
          return MakeFault(Fault::kBadValue, part, "a <numFmt> has no numeric numFmtId");
        f.code = n.attribute("formatCode").value();
        s.num_fmts_.push_back(std::move(f));
      }
    } else if (local == "fonts") {
      s.fonts_ = CanonicalChildren(c);
    } else if (local == "fills") {
      s.fills_ = CanonicalChildren(c);
    } else if (local == "borders") {
      s.borders_ = CanonicalChildren(c);
    } else if (local == "cellStyleXfs" || local == "cellXfs") {
      auto& list = local == "cellXfs" ? s.cell_xfs_ : s.cell_style_xfs_;
      for (pugi::xml_node n : Children(c, "xf")) {
        auto xf = ParseXf(n, part);
        if (!xf.ok()) return xf.error();
        list.push_back(std::move(*xf));
      }
    } else if (local == "cellStyles") {
      s.cell_styles_ = CanonicalChildren(c);
    } else if (local == "dxfs") {
      s.dxfs_ = CanonicalChildren(c);
      s.had_dxfs_ = true;
    } else {
      s.tail_.push_back(Canonical(c));
    }
  }
  return s;
}

Styles Styles::Default() {
  std::string colors = "<colors><indexedColors>";
  for (const char* rgb : kPalette) colors += "<rgbColor rgb=\"" + std::string(rgb) + "\"/>";
  colors += "</indexedColors></colors>";
  Styles s;
  s.root_attributes_.emplace_back("xmlns", kMainNs);
  FontSpec font;
  font.name = "Calibri";
  font.family = 2;
  font.theme_color = 1;
  font.size = 11;
  font.scheme = "minor";
  s.fonts_.push_back(font.ToXml());
  s.fills_.push_back(FillSpec{}.ToXml());
  s.fills_.push_back(FillSpec{"gray125", "", ""}.ToXml());
  s.borders_.push_back(BorderSpec{}.ToXml());
  Xf style_xf;
  s.cell_style_xfs_.push_back(style_xf);
  Xf cell_xf;
  cell_xf.attributes = {{"pivotButton", "0"}, {"quotePrefix", "0"}};
  cell_xf.xf_id = 0;
  s.cell_xfs_.push_back(cell_xf);
  s.cell_styles_.push_back("<cellStyle name=\"Normal\" xfId=\"0\" builtinId=\"0\" hidden=\"0\"/>");
  s.tail_.push_back(
      "<tableStyles count=\"0\" defaultTableStyle=\"TableStyleMedium9\" defaultPivotStyle=\"PivotStyleLight16\"/>");
  s.tail_.push_back(colors);
  return s;
}

std::string Styles::Serialize() const {
  std::string s = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?><styleSheet";
  bool has_ns = false;
  for (const auto& [k, v] : root_attributes_) {
    s += " " + k + "=\"" + EscapeXml(v) + "\"";
    if (k == "xmlns") has_ns = true;
  }
  if (!has_ns) s += std::string(" xmlns=\"") + kMainNs + "\"";
  s += ">";
  std::vector<std::string> fmts;
  for (const auto& f : num_fmts_)
    fmts.push_back("<numFmt numFmtId=\"" + std::to_string(f.id) + "\" formatCode=\"" + EscapeXml(f.code) + "\"/>");
  s += List("numFmts", fmts);
  s += List("fonts", fonts_);
  s += List("fills", fills_);
  s += List("borders", borders_);
  std::vector<std::string> xfs;
  for (const auto& x : cell_style_xfs_) xfs.push_back(XfXml(x));
  s += List("cellStyleXfs", xfs);
  xfs.clear();
  for (const auto& x : cell_xfs_) xfs.push_back(XfXml(x));
  s += List("cellXfs", xfs);
  s += List("cellStyles", cell_styles_);
  if (!dxfs_.empty() || had_dxfs_) s += List("dxfs", dxfs_);
  for (const auto& t : tail_) s += t;
  return s + "</styleSheet>";
}

std::optional<std::string> Styles::NumberFormatCode(std::uint32_t num_fmt_id) const {
  for (const auto& f : num_fmts_)
    if (f.id == num_fmt_id) return f.code;
  if (auto b = BuiltinNumberFormat(num_fmt_id)) return std::string(*b);
  return std::nullopt;
}

std::string Styles::CellNumberFormat(std::uint32_t xf_index) const {
  if (xf_index >= cell_xfs_.size()) return "General";
  return NumberFormatCode(cell_xfs_[xf_index].num_fmt_id).value_or("General");
}

bool Styles::IsDateStyle(std::uint32_t xf_index) const {
  if (xf_index >= cell_xfs_.size()) return false;
  auto code = NumberFormatCode(cell_xfs_[xf_index].num_fmt_id);
  return code && IsDateFormat(*code);
}

std::uint32_t Styles::InternNumFmt(std::string_view code) {
  if (auto id = BuiltinNumberFormatId(code)) return *id;
  std::uint32_t next = kFirstCustomNumFmtId;
  for (const auto& f : num_fmts_) {
    if (f.code == code) return f.id;
    if (f.id >= next) next = f.id + 1;
  }
  num_fmts_.push_back(NumFmt{next, std::string(code)});
  return next;
}

Result<std::uint32_t> Styles::InternFont(std::string_view font_xml) {
  auto c = CanonicalFragment(font_xml);
  if (!c.ok()) return c.error();
  return InternIn(fonts_, std::move(*c));
}

Result<std::uint32_t> Styles::InternFill(std::string_view fill_xml) {
  auto c = CanonicalFragment(fill_xml);
  if (!c.ok()) return c.error();
  return InternIn(fills_, std::move(*c));
}

Result<std::uint32_t> Styles::InternBorder(std::string_view border_xml) {
  auto c = CanonicalFragment(border_xml);
  if (!c.ok()) return c.error();
  return InternIn(borders_, std::move(*c));
}

Result<std::uint32_t> Styles::InternDxf(std::string_view dxf_xml) {
  auto c = CanonicalFragment(dxf_xml);
  if (!c.ok()) return c.error();
  return InternIn(dxfs_, std::move(*c));
}

std::uint32_t Styles::InternCellXf(const Xf& xf) {
  for (std::size_t i = 0; i < cell_xfs_.size(); ++i)
    if (cell_xfs_[i] == xf) return static_cast<std::uint32_t>(i);
  cell_xfs_.push_back(xf);
  return static_cast<std::uint32_t>(cell_xfs_.size() - 1);
}

}  // namespace sbx::ooxml
