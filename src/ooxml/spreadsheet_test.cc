// Shared strings and styles, and a minimal workbook built through the
// helpers and opened by openpyxl (an independent reader).
#include <gtest/gtest.h>

#include "ooxml/content_types.h"
#include "ooxml/ooxml_test_util.h"
#include "ooxml/relationships.h"
#include "ooxml/shared_strings.h"
#include "ooxml/styles.h"
#include "ooxml/test_workbook.h"

namespace sbx::ooxml {
namespace {

constexpr const char* kSstHead = "<sst xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"";

TEST(OoxmlSharedStringsTest, PlainRichPhoneticAndEscapes) {
  auto sst = SharedStrings::Parse(std::string(kSstHead) +
                                  " count=\"9\" uniqueCount=\"4\">"
                                  "<si><t>plain</t></si>"
                                  "<si><r><rPr><b/></rPr><t>bo</t></r><r><t xml:space=\"preserve\"> ld</t></r>"
                                  "<rPh sb=\"0\" eb=\"1\"><t>ignored</t></rPh></si>"
                                  "<si><t>_x005F_x0041_</t></si>"
                                  "<si><t>plain</t></si></sst>");
  ASSERT_TRUE(sst.ok()) << sst.error().message;
  ASSERT_EQ(sst->size(), 4u);
  EXPECT_EQ(*sst->Get(0), "plain");
  EXPECT_EQ(*sst->Get(1), "bo ld");
  EXPECT_EQ(*sst->Get(2), "_x0041_");
  EXPECT_EQ(sst->Get(4), nullptr);
  EXPECT_EQ(sst->Intern("plain"), 0u);
  EXPECT_EQ(sst->Intern("new"), 4u);
  EXPECT_EQ(sst->Intern("new"), 4u);
}

TEST(OoxmlSharedStringsTest, SerializePreservesWhitespaceAndEscapes) {
  SharedStrings sst;
  EXPECT_EQ(sst.Intern("a"), 0u);
  EXPECT_EQ(sst.Intern(" lead"), 1u);
  EXPECT_EQ(sst.Intern("two\nlines"), 2u);
  EXPECT_EQ(sst.Intern("x<&>\"y"), 3u);
  EXPECT_EQ(sst.Intern(std::string("bell\x07") + "_x0041_"), 4u);
  EXPECT_EQ(sst.Serialize(7),
            std::string("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>") + kSstHead +
                " count=\"7\" uniqueCount=\"5\"><si><t>a</t></si><si><t xml:space=\"preserve\"> lead</t></si>"
                "<si><t xml:space=\"preserve\">two\nlines</t></si><si><t>x&lt;&amp;&gt;\"y</t></si>"
                "<si><t>bell_x0007__x005F_x0041_</t></si></sst>");
  auto back = SharedStrings::Parse(sst.Serialize(7));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back->Get(1), " lead");
  EXPECT_EQ(*back->Get(2), "two\nlines");
  EXPECT_EQ(*back->Get(3), "x<&>\"y");
}

TEST(OoxmlSharedStringsTest, WrongRoot) {
  auto sst = SharedStrings::Parse("<workbook/>");
  ASSERT_FALSE(sst.ok());
  EXPECT_EQ(sst.error().fault, Fault::kBadValue);
  EXPECT_EQ(sst.error().message, "/xl/sharedStrings.xml: the root element is <workbook>, not <sst>");
}

TEST(OoxmlNumberFormatsTest, BuiltinsAndDateRule) {
  EXPECT_EQ(BuiltinNumberFormat(0), "General");
  EXPECT_EQ(BuiltinNumberFormat(14), "mm-dd-yy");
  EXPECT_EQ(BuiltinNumberFormat(22), "m/d/yy h:mm");
  EXPECT_EQ(BuiltinNumberFormat(23), std::nullopt);
  EXPECT_EQ(BuiltinNumberFormat(44), "_(\"$\"* #,##0.00_)_(\"$\"* \\(#,##0.00\\)_(\"$\"* \"-\"??_)_(@_)");
  EXPECT_EQ(BuiltinNumberFormat(49), "@");
  EXPECT_EQ(BuiltinNumberFormat(50), std::nullopt);
  EXPECT_EQ(BuiltinNumberFormatId("0.00%"), 10u);
  EXPECT_EQ(BuiltinNumberFormatId("yyyy-mm-dd"), std::nullopt);
}

TEST(OoxmlNumberFormatsTest, DateRuleAgreesWithOpenpyxl) {
  std::vector<std::string> codes = {"General", "0.00", "yyyy-mm-dd", "mm-dd-yy", "h:mm", "[h]:mm:ss", "[H]:mm",
                                    "\"day\" 0", "[Red]0.00", "[$-409]d-mmm", "0;[Red]yyyy", "d", "\\d0", "x\\d",
                                    "[mm]:ss", "#,##0 \"m\"", "[$USD]0", "@", "mmss.0", "0.00E+00", "[ss]", "[hh]x",
                                    "\"a", "[abc", "yy\"x\"", "aDb", "# ?/?", "_(* #,##0_)"};
  for (std::uint32_t i = 0; i < 50; ++i)
    if (auto b = BuiltinNumberFormat(i)) codes.emplace_back(*b);
  if (!test::HavePythonModule("openpyxl")) GTEST_SKIP() << "python3-openpyxl is not installed";
  std::string input;
  for (const auto& c : codes) input += c + "\n";
  auto r = test::RunPython(
      "import sys\n"
      "from openpyxl.styles.numbers import is_date_format, is_timedelta_format\n"
      "for line in open(sys.argv[1]).read().split('\\n')[:-1]:\n"
      "    print(int(is_date_format(line)), int(is_timedelta_format(line)))\n",
      input, ".txt");
  ASSERT_EQ(r.status, 0) << r.output;
  std::string ours;
  for (const auto& c : codes) ours += std::to_string(IsDateFormat(c)) + " " + std::to_string(IsTimedeltaFormat(c)) + "\n";
  EXPECT_EQ(ours, r.output);
}

TEST(OoxmlStylesTest, DefaultIsWhatOpenpyxlWrites) {
  std::string ours = Styles::Default().Serialize();
  std::string head =
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>"
            "<styleSheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><numFmts count=\"0\"/>"
            "<fonts count=\"1\"><font><name val=\"Calibri\"/><family val=\"2\"/><color theme=\"1\"/><sz val=\"11\"/>"
            "<scheme val=\"minor\"/></font></fonts><fills count=\"2\"><fill><pa";
  EXPECT_EQ(ours.substr(0, head.size()), head);
  if (!test::HavePythonModule("openpyxl")) GTEST_SKIP() << "python3-openpyxl is not installed";
  auto r = test::RunPython(
      "import sys, io, zipfile, openpyxl\n"
      "b = io.BytesIO(); openpyxl.Workbook().save(b)\n"
      "theirs = zipfile.ZipFile(b).read('xl/styles.xml').decode()\n"
      "ours = open(sys.argv[1]).read()\n"
      "ours = ours[ours.index('?>') + 2:]\n"
      "print('same' if ours == theirs else 'differs:\\n' + ours + '\\n' + theirs)\n",
      ours, ".xml");
  EXPECT_EQ(r.output, "same\n");
}

TEST(OoxmlStylesTest, ParseRoundTripAndIntern) {
  std::string xml =
      "<styleSheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" xmlns:mc=\"urn:mc\">\n"
      "  <numFmts count=\"1\"><numFmt numFmtId=\"170\" formatCode=\"yyyy-mm-dd&quot;x&quot;\"/></numFmts>\n"
      "  <fonts count=\"1\"><font>\n <b/>\n <sz val=\"11\"/></font></fonts>\n"
      "  <fills count=\"1\"><fill><patternFill/></fill></fills>\n"
      "  <borders count=\"1\"><border/></borders>\n"
      "  <cellStyleXfs count=\"1\"><xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" borderId=\"0\"/></cellStyleXfs>\n"
      "  <cellXfs count=\"2\"><xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" borderId=\"0\" xfId=\"0\"/>"
      "<xf numFmtId=\"170\" fontId=\"0\" fillId=\"0\" borderId=\"0\" applyNumberFormat=\"1\" xfId=\"0\">"
      "<alignment wrapText=\"1\"/></xf></cellXfs>\n"
      "  <cellStyles count=\"1\"><cellStyle name=\"Normal\" xfId=\"0\" builtinId=\"0\"/></cellStyles>\n"
      "  <dxfs count=\"0\"/><tableStyles count=\"0\"/></styleSheet>";
  auto st = Styles::Parse(xml);
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(st->fonts()[0], "<font><b/><sz val=\"11\"/></font>");
  EXPECT_EQ(st->cell_xfs()[1].alignment, "<alignment wrapText=\"1\"/>");
  EXPECT_EQ(st->CellNumberFormat(1), "yyyy-mm-dd\"x\"");
  EXPECT_TRUE(st->IsDateStyle(1));
  EXPECT_FALSE(st->IsDateStyle(0));
  EXPECT_FALSE(st->IsDateStyle(99));
  EXPECT_EQ(st->CellNumberFormat(99), "General");
  std::string written =
      "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>"
      "<styleSheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" xmlns:mc=\"urn:mc\">"
      "<numFmts count=\"1\"><numFmt numFmtId=\"170\" formatCode=\"yyyy-mm-dd&quot;x&quot;\"/></numFmts>"
      "<fonts count=\"1\"><font><b/><sz val=\"11\"/></font></fonts>"
      "<fills count=\"1\"><fill><patternFill/></fill></fills><borders count=\"1\"><border/></borders>"
      "<cellStyleXfs count=\"1\"><xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" borderId=\"0\"/></cellStyleXfs>"
      "<cellXfs count=\"2\"><xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" borderId=\"0\" xfId=\"0\"/>"
      "<xf numFmtId=\"170\" fontId=\"0\" fillId=\"0\" borderId=\"0\" applyNumberFormat=\"1\" xfId=\"0\">"
      "<alignment wrapText=\"1\"/></xf></cellXfs>"
      "<cellStyles count=\"1\"><cellStyle name=\"Normal\" xfId=\"0\" builtinId=\"0\"/></cellStyles>"
      "<dxfs count=\"0\"/><tableStyles count=\"0\"/></styleSheet>";
  EXPECT_EQ(st->Serialize(), written);

  EXPECT_EQ(st->InternNumFmt("0.00"), 2u);
  EXPECT_EQ(st->InternNumFmt("yyyy-mm-dd\"x\""), 170u);
  EXPECT_EQ(st->InternNumFmt("0.000"), 171u);
  EXPECT_EQ(*st->InternFont("<font>\n  <b/><sz val=\"11\"/>\n</font>"), 0u);
  FontSpec red;
  red.bold = true;
  red.color = "FFFF0000";
  red.size = 14;
  EXPECT_EQ(*st->InternFont(red.ToXml()), 1u);
  EXPECT_EQ(*st->InternFont(red.ToXml()), 1u);
  EXPECT_EQ(st->fonts()[1], "<font><b val=\"1\"/><color rgb=\"FFFF0000\"/><sz val=\"14\"/></font>");
  EXPECT_EQ(*st->InternFill(FillSpec{"solid", "FFFFFF00", "FFFFFF00"}.ToXml()), 1u);
  BorderSpec thin;
  thin.left = thin.right = thin.top = thin.bottom = BorderSide{"thin", "FF000000"};
  EXPECT_EQ(*st->InternBorder(thin.ToXml()), 1u);
  EXPECT_EQ(*st->InternDxf(DxfSpec{red.ToXml(), "", "", ""}.ToXml()), 0u);
  EXPECT_FALSE(st->InternFont("<font>").ok());
  Xf xf = st->cell_xfs()[0];
  EXPECT_EQ(st->InternCellXf(xf), 0u);
  xf.font_id = 1;
  xf.SetAttribute("applyFont", "1");
  xf.alignment = AlignmentSpec{"center", "top", std::nullopt, true, false, std::nullopt}.ToXml();
  EXPECT_EQ(st->InternCellXf(xf), 2u);
  EXPECT_EQ(*st->cell_xfs()[2].Attribute("applyFont"), "1");
  EXPECT_EQ(st->cell_xfs()[2].alignment, "<alignment horizontal=\"center\" vertical=\"top\" wrapText=\"1\"/>");
}

TEST(OoxmlStylesTest, Malformed) {
  auto root = Styles::Parse("<sst/>");
  ASSERT_FALSE(root.ok());
  EXPECT_EQ(root.error().message, "/xl/styles.xml: the root element is <sst>, not <styleSheet>");
  auto id = Styles::Parse("<styleSheet><cellXfs><xf numFmtId=\"x\"/></cellXfs></styleSheet>");
  ASSERT_FALSE(id.ok());
  EXPECT_EQ(id.error().fault, Fault::kBadValue);
  EXPECT_EQ(id.error().message, "/xl/styles.xml: an <xf> has numFmtId=\"x\", not a number");
}

TEST(OoxmlWorkbookTest, MinimalWorkbookOpensInOpenpyxlAndZipfile) {
  Package p = test::MinimalWorkbook();
  EXPECT_TRUE(CheckRelationships(p).ok());
  auto zip = p.Write();
  ASSERT_TRUE(zip.ok()) << zip.error().message;
  // Our own reader takes it back unchanged.
  auto back = Package::Read(*zip);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->Names(), p.Names());
  if (!test::HavePythonModule("openpyxl")) GTEST_SKIP() << "python3-openpyxl is not installed";
  auto r = test::RunPython(
      "import sys, zipfile, openpyxl\n"
      "print(zipfile.ZipFile(sys.argv[1]).testzip())\n"
      "wb = openpyxl.load_workbook(sys.argv[1])\n"
      "ws = wb['Data']\n"
      "print(wb.sheetnames, repr(ws['A1'].value), ws['A1'].font.b, repr(ws['B1'].value), ws['B1'].number_format,"
      " repr(ws['C1'].value))\n",
      *zip);
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output,
            "None\n['Data'] 'héllo <world>' True datetime.datetime(2023, 3, 15, 0, 0) yyyy-mm-dd '  two\\nlines '\n");
}

}  // namespace
}  // namespace sbx::ooxml
