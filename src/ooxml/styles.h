// The SpreadsheetML stylesheet ("/xl/styles.xml", root <styleSheet>).
//
// Fonts, fills, borders, cell style xfs, named cell styles and dxfs are kept
// as canonical XML fragments ("<font><b/><sz val=\"11\"/></font>": no
// whitespace between elements, no namespace declarations) so that reading
// and writing keeps every detail, and Intern* finds an equal entry by
// comparing canonical text. Builders (FontSpec, ...) write fragments in the
// element order openpyxl uses. cellXfs are typed because servers read and
// combine their ids. Other children (tableStyles, colors, extLst) are kept
// verbatim in schema order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ooxml/error.h"
#include "ooxml/limits.h"

namespace sbx::ooxml {

// Built-in number formats 0-49 as Excel and openpyxl define them (ids
// 23-36 are locale-dependent and, as in openpyxl, unknown): nullopt if none.
std::optional<std::string_view> BuiltinNumberFormat(std::uint32_t id);
// The built-in id of a format code, if it is one.
std::optional<std::uint32_t> BuiltinNumberFormatId(std::string_view code);
// openpyxl's rule: the first ";" section, quoted literals and [..] groups
// other than [h] [hh] [m] [mm] [s] [ss] removed, then a d/m/h/y/s (either
// case) preceded by a character that is not a backslash.
bool IsDateFormat(std::string_view code);
// openpyxl's rule for elapsed time: [h], [hh]:mm, [mm]:ss, ... in the first section.
bool IsTimedeltaFormat(std::string_view code);

inline constexpr std::uint32_t kFirstCustomNumFmtId = 164;

struct NumFmt {
  std::uint32_t id = 0;
  std::string code;
  bool operator==(const NumFmt&) const = default;
};

struct Xf {
  std::uint32_t num_fmt_id = 0;
  std::uint32_t font_id = 0;
  std::uint32_t fill_id = 0;
  std::uint32_t border_id = 0;
  std::optional<std::uint32_t> xf_id;  // cellXfs entries point at a cellStyleXfs entry
  // Every other attribute as written, in order (applyFont="1", quotePrefix="0", ...).
  std::vector<std::pair<std::string, std::string>> attributes;
  std::string alignment;   // canonical "<alignment .../>" or ""
  std::string protection;  // canonical "<protection .../>" or ""

  // Sets (or replaces) an attribute of `attributes`.
  void SetAttribute(std::string_view name, std::string_view value);
  const std::string* Attribute(std::string_view name) const;
  bool operator==(const Xf&) const = default;
};

// Colors are ARGB hex ("FFFF0000"); an empty string means "not set".
struct FontSpec {
  std::string name;          // "Calibri"
  std::optional<int> family;  // 2 = swiss
  bool bold = false;
  bool italic = false;
  bool strike = false;
  std::string color;         // ARGB
  std::optional<int> theme_color;  // <color theme="N"/>, used when color is empty
  std::optional<double> size;
  std::string underline;     // "single", "double", ... or ""
  std::string vert_align;    // "superscript", "subscript" or ""
  std::string scheme;        // "minor", "major" or ""
  std::string ToXml() const;
};

struct FillSpec {
  std::string pattern;  // "solid", "gray125", ... or "" for <patternFill/>
  std::string fg_color;  // ARGB
  std::string bg_color;  // ARGB
  std::string ToXml() const;
};

struct BorderSide {
  std::string style;  // "thin", "medium", ... or "" (no line)
  std::string color;  // ARGB
};

struct BorderSpec {
  BorderSide left, right, top, bottom, diagonal;
  std::string ToXml() const;
};

struct AlignmentSpec {
  std::string horizontal;  // "left", "center", ... or ""
  std::string vertical;    // "top", "center", ... or ""
  std::optional<int> text_rotation;
  bool wrap_text = false;
  bool shrink_to_fit = false;
  std::optional<int> indent;
  std::string ToXml() const;  // "" when nothing is set
};

// A differential format (conditional formatting). Fragments are canonical
// <font>, <numFmt>, <fill>, <border> elements or "".
struct DxfSpec {
  std::string font;
  std::string num_fmt;
  std::string fill;
  std::string border;
  std::string ToXml() const;
};

class Styles {
 public:
  // kBadXml / kTooLarge from the parse; kBadValue (naming part) if the root
  // is not styleSheet or an xf/numFmt id is not a number.
  static Result<Styles> Parse(std::string_view xml, const Limits& limits = {},
                              std::string_view part = "/xl/styles.xml");
  // The stylesheet openpyxl 3.x writes for a new workbook.
  static Styles Default();
  std::string Serialize() const;

  const std::vector<NumFmt>& num_fmts() const { return num_fmts_; }
  const std::vector<std::string>& fonts() const { return fonts_; }
  const std::vector<std::string>& fills() const { return fills_; }
  const std::vector<std::string>& borders() const { return borders_; }
  const std::vector<Xf>& cell_style_xfs() const { return cell_style_xfs_; }
  const std::vector<Xf>& cell_xfs() const { return cell_xfs_; }
  const std::vector<std::string>& cell_styles() const { return cell_styles_; }
  const std::vector<std::string>& dxfs() const { return dxfs_; }

  // The code of a number format id: a custom numFmt, else a built-in one.
  std::optional<std::string> NumberFormatCode(std::uint32_t num_fmt_id) const;
  // The number format code of cell style index `s` (the cell's s="..."):
  // "General" for an index out of range, as readers do.
  std::string CellNumberFormat(std::uint32_t xf_index) const;
  bool IsDateStyle(std::uint32_t xf_index) const;

  // A built-in id for a built-in code, else the id of an equal custom
  // numFmt, else a new custom one (ids from 164 up).
  std::uint32_t InternNumFmt(std::string_view code);
  // Fragments are canonicalised first; kBadXml if one is not a single element.
  Result<std::uint32_t> InternFont(std::string_view font_xml);
  Result<std::uint32_t> InternFill(std::string_view fill_xml);
  Result<std::uint32_t> InternBorder(std::string_view border_xml);
  Result<std::uint32_t> InternDxf(std::string_view dxf_xml);
  std::uint32_t InternCellXf(const Xf& xf);

 private:
  std::vector<std::pair<std::string, std::string>> root_attributes_;  // xmlns, mc:Ignorable, ...
  std::vector<NumFmt> num_fmts_;
  std::vector<std::string> fonts_, fills_, borders_;
  std::vector<Xf> cell_style_xfs_, cell_xfs_;
  std::vector<std::string> cell_styles_, dxfs_;
  std::vector<std::string> tail_;  // tableStyles, colors, extLst: verbatim
  bool had_dxfs_ = false;          // write <dxfs count="0"/> only if it was read so
};

// A canonical fragment: the element re-serialised without whitespace or
// namespace declarations. kBadXml if `xml` is not one element.
Result<std::string> CanonicalFragment(std::string_view xml);

}  // namespace sbx::ooxml
