// A workbook as openpyxl's load_workbook/save sees it: the package kept
// whole (parts we do not model survive), the worksheets parsed into
// Sheet, the stylesheet typed. Save writes what openpyxl's save would make
// visible to a reader: every formula without a cached value (and the
// calculation chain gone, full recalculation on load), the sheets in
// order, new and copied sheets as parts of their own.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <pugixml.hpp>

#include "ooxml/content_types.h"
#include "ooxml/error.h"
#include "ooxml/limits.h"
#include "ooxml/package.h"
#include "ooxml/relationships.h"
#include "ooxml/styles.h"
#include "servers/excel/sheet.h"

namespace sbx::servers::excel {

struct LoadLimits {
  ooxml::Limits package;
  std::uint64_t max_cells = 2'000'000;
};

// openpyxl's title setter checks: the ValueError text for a title it
// refuses ("Title must have at least one character", "Invalid character /
// found in sheet title"), or nullopt.
std::optional<std::string> TitleError(const std::string& title);
// openpyxl's avoid_duplicate_name.
std::string AvoidDuplicateName(const std::vector<std::string>& names, const std::string& value);

class Workbook {
 public:
  static ooxml::Result<Workbook> Load(std::string_view bytes, const LoadLimits& limits);
  // openpyxl's Workbook(): one empty sheet named "Sheet".
  static Workbook New();
  // The workbook held by `package` (parts already read and bounded).
  static ooxml::Result<Workbook> FromPackage(ooxml::Package package, const LoadLimits& limits);
  ooxml::Result<std::string> Save();
  // Writes the model's parts into package() without zipping, so package
  // edits (charts) can follow; reload with FromPackage after them.
  ooxml::Status Flush();

  // wb.active's title: the workbook view's activeTab (first sheet if none).
  std::string ActiveName() const;
  // wb.sheetnames (worksheets, in workbook order).
  std::vector<std::string> SheetNames() const;
  Sheet* Find(std::string_view name);
  // wb.create_sheet(name) at the end.
  Sheet& Create(const std::string& name);
  // wb.copy_worksheet(source) named `name`: cells, styles, merges, column
  // widths, row heights and page setup; not validations, conditional
  // formats, tables or drawings (openpyxl's WorksheetCopy leaves them).
  void Copy(std::string_view source, const std::string& name);
  void Remove(std::string_view name);
  void Rename(std::string_view old_name, const std::string& new_name);

  ooxml::Styles& styles() { return styles_; }
  // Whether cellXfs[style] has a date number format (openpyxl reads such
  // numbers as datetimes).
  bool IsDateStyle(std::uint32_t style) const;
  std::uint64_t CellCount() const;

  ooxml::Package& package() { return package_; }
  ooxml::ContentTypes& content_types() { return types_; }
  // The part name of the worksheet `name` ("" if none).
  std::string PartOf(std::string_view name) const;

 private:
  struct Entry {
    std::string name;
    std::string part;    // "/xl/worksheets/sheet1.xml"
    std::string rel_id;  // in the workbook's rels
    std::shared_ptr<Sheet> sheet;
  };
  Entry* FindEntry(std::string_view name);
  std::string FreshSheetPart() const;

  ooxml::Package package_ = ooxml::Package::Empty();
  ooxml::ContentTypes types_;
  std::string workbook_part_;
  std::shared_ptr<pugi::xml_document> workbook_xml_;
  ooxml::Relationships workbook_rels_;
  ooxml::Styles styles_ = ooxml::Styles::Default();
  std::string styles_part_;
  std::vector<Entry> sheets_;
  std::vector<std::string> removed_parts_;
  std::uint32_t next_sheet_id_ = 1;
};

}  // namespace sbx::servers::excel
