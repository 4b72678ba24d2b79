// Test fixture: a one-sheet workbook ("Data": A1 a bold shared string,
// B1 a date-formatted number, C1 a string with spaces and a newline) built
// only through this folder's helpers.
#pragma once

#include <gtest/gtest.h>

#include "ooxml/content_types.h"
#include "ooxml/package.h"
#include "ooxml/relationships.h"
#include "ooxml/shared_strings.h"
#include "ooxml/styles.h"

namespace sbx::ooxml::test {

inline Package MinimalWorkbook() {
  const std::string r = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/";
  const std::string ct_base = "application/vnd.openxmlformats-officedocument.spreadsheetml.";
  ContentTypes ct;
  ct.SetDefault("rels", "application/vnd.openxmlformats-package.relationships+xml");
  ct.SetDefault("xml", "application/xml");
  ct.SetOverride("/xl/workbook.xml", ct_base + "sheet.main+xml");
  ct.SetOverride("/xl/worksheets/sheet1.xml", ct_base + "worksheet+xml");
  ct.SetOverride("/xl/styles.xml", ct_base + "styles+xml");
  ct.SetOverride("/xl/sharedStrings.xml", ct_base + "sharedStrings+xml");
  Relationships root;
  root.Add(r + "officeDocument", RelativeTarget("/", "/xl/workbook.xml"));
  Relationships wb;
  std::string sheet_id = wb.Add(r + "worksheet", RelativeTarget("/xl/workbook.xml", "/xl/worksheets/sheet1.xml"));
  wb.Add(r + "styles", "styles.xml");
  wb.Add(r + "sharedStrings", "sharedStrings.xml");
  SharedStrings sst;
  std::size_t hello = sst.Intern("héllo <world>");
  std::size_t spaced = sst.Intern("  two\nlines ");
  Styles styles = Styles::Default();
  Xf date_xf = styles.cell_xfs()[0];
  date_xf.num_fmt_id = styles.InternNumFmt("yyyy-mm-dd");
  date_xf.SetAttribute("applyNumberFormat", "1");
  std::uint32_t date_style = styles.InternCellXf(date_xf);
  FontSpec bold;
  bold.bold = true;
  bold.name = "Calibri";
  bold.size = 11;
  Xf bold_xf = styles.cell_xfs()[0];
  bold_xf.font_id = *styles.InternFont(bold.ToXml());
  std::uint32_t bold_style = styles.InternCellXf(bold_xf);

  const std::string main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
  Package p = Package::Empty();
  EXPECT_TRUE(p.Set(kContentTypesPart, ct.Serialize()));
  EXPECT_TRUE(p.Set("/_rels/.rels", root.Serialize()));
  EXPECT_TRUE(p.Set("/xl/workbook.xml",
                    "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?><workbook xmlns=\"" + main +
                        "\" xmlns:r=\"" + r.substr(0, r.size() - 1) + "\"><sheets><sheet name=\"Data\" sheetId=\"1\" r:id=\"" +
                        sheet_id + "\"/></sheets></workbook>"));
  EXPECT_TRUE(p.Set("/xl/_rels/workbook.xml.rels", wb.Serialize()));
  EXPECT_TRUE(p.Set("/xl/worksheets/sheet1.xml",
                    "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?><worksheet xmlns=\"" + main +
                        "\"><sheetData><row r=\"1\"><c r=\"A1\" t=\"s\" s=\"" + std::to_string(bold_style) + "\"><v>" +
                        std::to_string(hello) + "</v></c><c r=\"B1\" s=\"" + std::to_string(date_style) +
                        "\"><v>45000</v></c><c r=\"C1\" t=\"s\"><v>" + std::to_string(spaced) +
                        "</v></c></row></sheetData></worksheet>"));
  EXPECT_TRUE(p.Set("/xl/styles.xml", styles.Serialize()));
  EXPECT_TRUE(p.Set("/xl/sharedStrings.xml", sst.Serialize(2)));
  return p;
}

}  // namespace sbx::ooxml::test
