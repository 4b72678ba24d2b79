#include "ooxml/chart.h"

#include <gtest/gtest.h>

#include "ooxml/ooxml_test_util.h"
#include "ooxml/relationships.h"
#include "ooxml/test_workbook.h"
#include "ooxml/xml.h"

namespace sbx::ooxml {
namespace {

TEST(OoxmlChartTest, Formulas) {
  EXPECT_EQ(ColumnLetters(1), "A");
  EXPECT_EQ(ColumnLetters(26), "Z");
  EXPECT_EQ(ColumnLetters(27), "AA");
  EXPECT_EQ(ColumnLetters(16384), "XFD");
  EXPECT_EQ(QuoteSheetName("It's"), "'It''s'");
  EXPECT_EQ(CellFormula("My Data", 2, 1), "'My Data'!B1");
  EXPECT_EQ(RangeFormula("Data", 1, 2, 1, 4), "'Data'!$A$2:$A$4");
  EXPECT_EQ(RangeFormula("Data", 2, 2, 2, 2), "'Data'!$B$2");
}

TEST(OoxmlChartTest, BarChartXml) {
  ChartSpec spec;
  spec.title = "Sales & <costs>";
  spec.x_axis_title = "Month";
  spec.series.push_back({"'Data'!B1", "'Data'!$A$2:$A$4", "'Data'!$B$2:$B$4"});
  spec.data_labels = ChartDataLabels{};
  const std::string t = "<c:tx><c:rich><a:bodyPr/><a:p><a:pPr><a:defRPr/></a:pPr><a:r><a:t>";
  const std::string te = "</a:t></a:r></a:p></c:rich></c:tx>";
  EXPECT_EQ(ChartXml(spec),
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?><c:chartSpace "
            "xmlns:c=\"http://schemas.openxmlformats.org/drawingml/2006/chart\" "
            "xmlns:a=\"http://schemas.openxmlformats.org/drawingml/2006/main\" "
            "xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\"><c:chart><c:title>" +
                t + "Sales &amp; &lt;costs&gt;" + te +
                "</c:title><c:autoTitleDeleted val=\"0\"/><c:plotArea><c:layout/><c:barChart><c:barDir val=\"col\"/>"
                "<c:grouping val=\"clustered\"/><c:ser><c:idx val=\"0\"/><c:order val=\"0\"/><c:tx><c:strRef>"
                "<c:f>'Data'!B1</c:f></c:strRef></c:tx><c:spPr><a:ln><a:prstDash val=\"solid\"/></a:ln></c:spPr>"
                "<c:cat><c:numRef><c:f>'Data'!$A$2:$A$4</c:f></c:numRef></c:cat><c:val><c:numRef>"
                "<c:f>'Data'!$B$2:$B$4</c:f></c:numRef></c:val></c:ser><c:dLbls><c:showLegendKey val=\"0\"/>"
                "<c:showVal val=\"1\"/><c:showCatName val=\"0\"/><c:showSerName val=\"0\"/><c:showPercent val=\"0\"/>"
                "<c:showBubbleSize val=\"0\"/></c:dLbls><c:gapWidth val=\"150\"/><c:axId val=\"10\"/>"
                "<c:axId val=\"100\"/></c:barChart><c:catAx><c:axId val=\"10\"/><c:scaling><c:orientation "
                "val=\"minMax\"/></c:scaling><c:delete val=\"0\"/><c:axPos val=\"l\"/><c:title>" +
                t + "Month" + te +
                "</c:title><c:majorTickMark val=\"none\"/><c:minorTickMark val=\"none\"/><c:crossAx val=\"100\"/>"
                "<c:lblOffset val=\"100\"/></c:catAx><c:valAx><c:axId val=\"100\"/><c:scaling><c:orientation "
                "val=\"minMax\"/></c:scaling><c:delete val=\"0\"/><c:axPos val=\"l\"/><c:majorGridlines/>"
                "<c:majorTickMark val=\"none\"/><c:minorTickMark val=\"none\"/><c:crossAx val=\"10\"/></c:valAx>"
                "</c:plotArea><c:legend><c:legendPos val=\"r\"/><c:overlay val=\"0\"/></c:legend>"
                "<c:plotVisOnly val=\"1\"/><c:dispBlanksAs val=\"gap\"/></c:chart></c:chartSpace>");
}

// The fixture workbook with a small table on its sheet: Month, Sales, Cost.
Package ChartWorkbook() {
  Package p = test::MinimalWorkbook();
  std::string rows;
  const char* months[] = {"Jan", "Feb", "Mar"};
  rows += "<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>Month</t></is></c><c r=\"B1\" t=\"inlineStr\"><is><t>Sales"
          "</t></is></c><c r=\"C1\" t=\"inlineStr\"><is><t>Cost</t></is></c></row>";
  for (int i = 0; i < 3; ++i) {
    std::string r = std::to_string(i + 2);
    rows += "<row r=\"" + r + "\"><c r=\"A" + r + "\" t=\"inlineStr\"><is><t>" + months[i] + "</t></is></c><c r=\"B" + r +
            "\"><v>" + std::to_string(10 * (i + 1)) + "</v></c><c r=\"C" + r + "\"><v>" + std::to_string(i + 4) +
            "</v></c></row>";
  }
  EXPECT_TRUE(p.Set("/xl/worksheets/sheet1.xml",
                    "<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><sheetData>" + rows +
                        "</sheetData><pageMargins left=\"0.7\" right=\"0.7\" top=\"0.75\" bottom=\"0.75\" header=\"0.3\" "
                        "footer=\"0.3\"/><tableParts count=\"0\"/></worksheet>"));
  return p;
}

ChartSpec Spec(ChartKind kind) {
  ChartSpec spec;
  spec.kind = kind;
  spec.title = "T";
  if (kind != ChartKind::kPie) {
    spec.x_axis_title = "X";
    spec.y_axis_title = "Y";
  }
  for (std::uint32_t col : {2u, 3u})
    spec.series.push_back({CellFormula("Data", col, 1), RangeFormula("Data", 1, 2, 1, 4), RangeFormula("Data", col, 2, col, 4)});
  return spec;
}

TEST(OoxmlChartTest, AddChartsToAWorksheet) {
  Package p = ChartWorkbook();
  auto first = AddChartToWorksheet(p, "/xl/worksheets/sheet1.xml", Spec(ChartKind::kBar), ChartAnchor{});
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_EQ(first->chart_part, "/xl/charts/chart1.xml");
  EXPECT_EQ(first->drawing_part, "/xl/drawings/drawing1.xml");
  // The <drawing> goes before <tableParts>, after <pageMargins>.
  auto sheet = ParseXml(*p.Bytes("/xl/worksheets/sheet1.xml"), "s");
  ASSERT_TRUE(sheet.ok());
  std::vector<std::string> order;
  for (pugi::xml_node c : sheet->document_element().children()) order.push_back(c.name());
  EXPECT_EQ(order, (std::vector<std::string>{"sheetData", "pageMargins", "drawing", "tableParts"}));
  EXPECT_EQ(*p.Bytes("/xl/worksheets/_rels/sheet1.xml.rels"),
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?><Relationships "
            "xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\"><Relationship Id=\"rId1\" "
            "Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing\" "
            "Target=\"../drawings/drawing1.xml\"/></Relationships>");

  auto second = AddChartToWorksheet(p, "/xl/worksheets/sheet1.xml", Spec(ChartKind::kPie), ChartAnchor{10, 2, 3 * kEmuPerCm, 2 * kEmuPerCm});
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_EQ(second->chart_part, "/xl/charts/chart2.xml");
  EXPECT_EQ(second->drawing_part, "/xl/drawings/drawing1.xml");
  EXPECT_EQ(*p.Bytes("/xl/drawings/_rels/drawing1.xml.rels"),
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?><Relationships "
            "xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\"><Relationship Id=\"rId1\" "
            "Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart\" "
            "Target=\"../charts/chart1.xml\"/><Relationship Id=\"rId2\" "
            "Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart\" "
            "Target=\"../charts/chart2.xml\"/></Relationships>");
  auto drawing = ParseXml(*p.Bytes("/xl/drawings/drawing1.xml"), "d");
  ASSERT_TRUE(drawing.ok());
  auto anchors = Children(drawing->document_element(), "oneCellAnchor");
  ASSERT_EQ(anchors.size(), 2u);
  EXPECT_STREQ(anchors[1].select_node(".//*[local-name()='cNvPr']").node().attribute("id").value(), "2");
  EXPECT_STREQ(anchors[1].select_node(".//*[local-name()='cNvPr']").node().attribute("name").value(), "Chart 2");
  EXPECT_TRUE(CheckRelationships(p).ok());

  auto ct = ContentTypes::Parse(*p.Bytes(kContentTypesPart));
  ASSERT_TRUE(ct.ok());
  EXPECT_EQ(ct->TypeOf("/xl/charts/chart2.xml"), std::string(kChartContentType));
  EXPECT_EQ(ct->TypeOf("/xl/drawings/drawing1.xml"), std::string(kDrawingContentType));
}

TEST(OoxmlChartTest, ErrorsLeaveThePackageUnchanged) {
  Package p = ChartWorkbook();
  auto missing = AddChartToWorksheet(p, "/xl/worksheets/sheet9.xml", Spec(ChartKind::kBar), ChartAnchor{});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().fault, Fault::kMissingPart);
  EXPECT_EQ(missing.error().message, "/xl/worksheets/sheet9.xml: no such part in the package");
  ASSERT_TRUE(p.Set("/xl/worksheets/sheet2.xml", "<chartsheet/>"));
  auto not_sheet = AddChartToWorksheet(p, "/xl/worksheets/sheet2.xml", Spec(ChartKind::kBar), ChartAnchor{});
  ASSERT_FALSE(not_sheet.ok());
  EXPECT_EQ(not_sheet.error().message, "/xl/worksheets/sheet2.xml: the root element is <chartsheet>, not <worksheet>");
  ASSERT_TRUE(p.Set("/xl/worksheets/sheet1.xml",
                    "<worksheet xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\">"
                    "<drawing r:id=\"rId5\"/></worksheet>"));
  auto snapshot = p.Write();
  ASSERT_TRUE(snapshot.ok());
  auto dangling = AddChartToWorksheet(p, "/xl/worksheets/sheet1.xml", Spec(ChartKind::kBar), ChartAnchor{});
  ASSERT_FALSE(dangling.ok());
  EXPECT_EQ(dangling.error().fault, Fault::kBadRelationship);
  EXPECT_EQ(dangling.error().message,
            "/xl/worksheets/sheet1.xml: the <drawing> names relationship rId5, which "
            "/xl/worksheets/_rels/sheet1.xml.rels does not hold");
  // Write() is deterministic: equal bytes, equal package.
  EXPECT_EQ(*p.Write(), *snapshot);
  EXPECT_FALSE(p.Has("/xl/charts/chart1.xml"));
  EXPECT_FALSE(p.Has("/xl/drawings/drawing1.xml"));
}

// Every kind in one workbook, read back by openpyxl and converted by LibreOffice.
TEST(OoxmlChartTest, OpenpyxlAndLibreOfficeReadTheCharts) {
  Package p = ChartWorkbook();
  std::vector<ChartKind> kinds = {ChartKind::kBar, ChartKind::kLine, ChartKind::kPie, ChartKind::kScatter, ChartKind::kArea,
                                  ChartKind::kBar};
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    ChartSpec spec = Spec(kinds[i]);
    if (i == 5) {
      spec.bar_direction = BarDirection::kBar;
      spec.legend_position.reset();
      spec.title.reset();
      spec.data_labels = ChartDataLabels{};
    }
    auto r = AddChartToWorksheet(p, "/xl/worksheets/sheet1.xml", spec, ChartAnchor{4, static_cast<std::uint32_t>(14 + 16 * i)});
    ASSERT_TRUE(r.ok()) << r.error().message;
  }
  auto zip = p.Write();
  ASSERT_TRUE(zip.ok());
  if (!test::HavePythonModule("openpyxl")) GTEST_SKIP() << "python3-openpyxl is not installed";
  auto r = test::RunPython(
      "import sys, openpyxl\n"
      "ws = openpyxl.load_workbook(sys.argv[1])['Data']\n"
      "for c in ws._charts:\n"
      "    s = c.series[0]\n"
      "    refs = [s.tx.strRef.f, (s.cat or s.xVal).numRef.f, (s.val or s.yVal).numRef.f]\n"
      "    print(type(c).__name__, getattr(c, 'type', '-'), len(c.series), refs, c.anchor._from.col, c.anchor._from.row,"
      " c.legend is not None)\n",
      *zip);
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output,
            "BarChart col 2 [\"'Data'!B1\", \"'Data'!$A$2:$A$4\", \"'Data'!$B$2:$B$4\"] 4 14 True\n"
            "LineChart - 2 [\"'Data'!B1\", \"'Data'!$A$2:$A$4\", \"'Data'!$B$2:$B$4\"] 4 30 True\n"
            "PieChart - 2 [\"'Data'!B1\", \"'Data'!$A$2:$A$4\", \"'Data'!$B$2:$B$4\"] 4 46 True\n"
            "ScatterChart - 2 [\"'Data'!B1\", \"'Data'!$A$2:$A$4\", \"'Data'!$B$2:$B$4\"] 4 62 True\n"
            "AreaChart - 2 [\"'Data'!B1\", \"'Data'!$A$2:$A$4\", \"'Data'!$B$2:$B$4\"] 4 78 True\n"
            "BarChart bar 2 [\"'Data'!B1\", \"'Data'!$A$2:$A$4\", \"'Data'!$B$2:$B$4\"] 4 94 False\n");

  if (::access("/usr/bin/soffice", X_OK) != 0) GTEST_SKIP() << "LibreOffice (soffice) is not installed";
  // LibreOffice converts to OpenDocument; each chart becomes an embedded
  // object whose class names the chart type it understood.
  auto lo = test::RunPython(
      "import sys, os, re, subprocess, tempfile, zipfile\n"
      "d = tempfile.mkdtemp()\n"
      "subprocess.run(['soffice', '-env:UserInstallation=file://' + d + '/profile', '--headless', '--norestore',"
      " '--convert-to', 'ods', '--outdir', d, sys.argv[1]], check=True, capture_output=True, timeout=300)\n"
      "z = zipfile.ZipFile(os.path.join(d, 'file.ods'))\n"
      "kinds = []\n"
      "for n in sorted(z.namelist(), key=lambda n: int(re.sub(r'\\D', '', n) or 0)):\n"
      "    if re.fullmatch(r'Object \\d+/content.xml', n):\n"
      "        kinds.append(re.search(r'chart:class=\"chart:(\\w+)\"', z.read(n).decode()).group(1))\n"
      "print(sorted(kinds))\n",
      *zip);
  EXPECT_EQ(lo.status, 0) << lo.output;
  EXPECT_EQ(lo.output, "['area', 'bar', 'bar', 'circle', 'line', 'scatter']\n");
}

}  // namespace
}  // namespace sbx::ooxml
