// Content types, relationships and their graph check.
#include <gtest/gtest.h>

#include "ooxml/content_types.h"
#include "ooxml/relationships.h"

namespace sbx::ooxml {
namespace {

constexpr const char* kRelsHead =
    "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">";
constexpr const char* kDocType = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument";

TEST(OoxmlContentTypesTest, ParseLookupEditSerialize) {
  auto ct = ContentTypes::Parse(
      "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
      "<Default Extension=\"XML\" ContentType=\"application/xml\"/>"
      "<Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
      "<Override PartName=\"/xl/workbook.xml\" ContentType=\"wb\"/></Types>");
  ASSERT_TRUE(ct.ok()) << ct.error().message;
  EXPECT_EQ(ct->TypeOf("/XL/Workbook.xml"), "wb");
  EXPECT_EQ(ct->TypeOf("/xl/styles.xml"), "application/xml");
  EXPECT_EQ(ct->TypeOf("/_rels/.rels"), "application/vnd.openxmlformats-package.relationships+xml");
  EXPECT_EQ(ct->TypeOf("/xl/media/image"), std::nullopt);
  EXPECT_EQ(ct->TypeOf("/x.y/image"), std::nullopt);
  ct->SetOverride("/xl/styles.xml", "st");
  ct->SetOverride("/xl/workbook.xml", "wb2");
  ct->SetDefault("png", "image/png");
  EXPECT_TRUE(ct->RemoveOverride("/xl/STYLES.xml"));
  EXPECT_FALSE(ct->RemoveOverride("/xl/styles.xml"));
  EXPECT_EQ(ct->Serialize(),
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>"
            "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
            "<Default Extension=\"XML\" ContentType=\"application/xml\"/>"
            "<Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
            "<Default Extension=\"png\" ContentType=\"image/png\"/>"
            "<Override PartName=\"/xl/workbook.xml\" ContentType=\"wb2\"/></Types>");
}

TEST(OoxmlContentTypesTest, Malformed) {
  auto wrong = ContentTypes::Parse("<Typos/>");
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.error().fault, Fault::kBadContentTypes);
  EXPECT_EQ(wrong.error().message, "/[Content_Types].xml: the root element is <Typos>, not <Types>");
  auto lacking = ContentTypes::Parse("<Types><Override PartName=\"/a.xml\"/></Types>");
  ASSERT_FALSE(lacking.ok());
  EXPECT_EQ(lacking.error().message, "/[Content_Types].xml: an <Override> lacks PartName or ContentType");
  auto bad = ContentTypes::Parse("<Types><Override PartName=\"/../a.xml\" ContentType=\"x\"/></Types>");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "/[Content_Types].xml: an <Override> names an invalid part (/../a.xml: invalid part name: it has a '.' or "
            "'..' segment)");
  auto notxml = ContentTypes::Parse("<Types>");
  ASSERT_FALSE(notxml.ok());
  EXPECT_EQ(notxml.error().fault, Fault::kBadXml);
  EXPECT_EQ(notxml.error().part, "/[Content_Types].xml");
}

TEST(OoxmlRelationshipsTest, NamesResolveAndRelative) {
  EXPECT_EQ(RelsPartName("/xl/workbook.xml"), "/xl/_rels/workbook.xml.rels");
  EXPECT_EQ(RelsPartName("/"), "/_rels/.rels");
  EXPECT_EQ(RelsPartName(""), "/_rels/.rels");
  EXPECT_EQ(*Resolve("/", "xl/workbook.xml"), "/xl/workbook.xml");
  EXPECT_EQ(*Resolve("/xl/workbook.xml", "worksheets/sheet1.xml"), "/xl/worksheets/sheet1.xml");
  EXPECT_EQ(*Resolve("/xl/worksheets/sheet1.xml", "../drawings/drawing1.xml"), "/xl/drawings/drawing1.xml");
  EXPECT_EQ(*Resolve("/xl/workbook.xml", "/xl/worksheets/./sheet1.xml#frag"), "/xl/worksheets/sheet1.xml");
  auto up = Resolve("/xl/workbook.xml", "../../x");
  ASSERT_FALSE(up.ok());
  EXPECT_EQ(up.error().fault, Fault::kBadRelationship);
  EXPECT_EQ(up.error().message, "/xl/workbook.xml: the relationship target \"../../x\" climbs above the package root");
  EXPECT_EQ(RelativeTarget("/xl/workbook.xml", "/xl/worksheets/sheet1.xml"), "worksheets/sheet1.xml");
  EXPECT_EQ(RelativeTarget("/xl/worksheets/sheet1.xml", "/xl/drawings/drawing1.xml"), "../drawings/drawing1.xml");
  EXPECT_EQ(RelativeTarget("/xl/drawings/drawing1.xml", "/xl/charts/chart1.xml"), "../charts/chart1.xml");
  EXPECT_EQ(RelativeTarget("/", "/xl/workbook.xml"), "xl/workbook.xml");
}

TEST(OoxmlRelationshipsTest, ParseAddRemoveSerialize) {
  auto rels = Relationships::Parse(std::string(kRelsHead) +
                                       "<Relationship Id=\"rId2\" Type=\"t1\" Target=\"a.xml\"/>"
                                       "<Relationship Id=\"rId7\" Type=\"t2\" Target=\"http://x/\" TargetMode=\"External\"/>"
                                       "<Relationship Id=\"other\" Type=\"t1\" Target=\"b.xml\"/></Relationships>",
                                   "/xl/_rels/workbook.xml.rels");
  ASSERT_TRUE(rels.ok()) << rels.error().message;
  EXPECT_EQ(rels->all().size(), 3u);
  EXPECT_TRUE(rels->FindById("rId7")->external);
  EXPECT_EQ(rels->FindByType("t1")->target, "a.xml");
  EXPECT_EQ(rels->AllOfType("t1").size(), 2u);
  EXPECT_EQ(rels->FindById("nope"), nullptr);
  EXPECT_EQ(rels->Add("t3", "c.xml"), "rId8");
  EXPECT_TRUE(rels->Remove("rId2"));
  EXPECT_FALSE(rels->Remove("rId2"));
  EXPECT_EQ(rels->Serialize(), std::string("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>") + kRelsHead +
                                   "<Relationship Id=\"rId7\" Type=\"t2\" Target=\"http://x/\" TargetMode=\"External\"/>"
                                   "<Relationship Id=\"other\" Type=\"t1\" Target=\"b.xml\"/>"
                                   "<Relationship Id=\"rId8\" Type=\"t3\" Target=\"c.xml\"/></Relationships>");
  Relationships empty;
  EXPECT_EQ(empty.Add("t", "x.xml"), "rId1");
}

TEST(OoxmlRelationshipsTest, Malformed) {
  auto dup = Relationships::Parse(std::string(kRelsHead) +
                                      "<Relationship Id=\"rId1\" Type=\"t\" Target=\"a\"/>"
                                      "<Relationship Id=\"rId1\" Type=\"t\" Target=\"b\"/></Relationships>",
                                  "/_rels/.rels");
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.error().fault, Fault::kBadRelationship);
  EXPECT_EQ(dup.error().message, "/_rels/.rels: the relationship id \"rId1\" is used twice");
  auto lacking = Relationships::Parse(std::string(kRelsHead) + "<Relationship Id=\"rId1\"/></Relationships>", "/_rels/.rels");
  ASSERT_FALSE(lacking.ok());
  EXPECT_EQ(lacking.error().message, "/_rels/.rels: a <Relationship> lacks Id, Type or Target");
}

Package GraphPackage(const std::string& root_rels, const std::string& wb_rels) {
  Package p = Package::Empty();
  EXPECT_TRUE(p.Set("/_rels/.rels", std::string(kRelsHead) + root_rels + "</Relationships>"));
  EXPECT_TRUE(p.Set("/xl/workbook.xml", "<workbook/>"));
  EXPECT_TRUE(p.Set("/xl/_rels/workbook.xml.rels", std::string(kRelsHead) + wb_rels + "</Relationships>"));
  EXPECT_TRUE(p.Set("/xl/worksheets/sheet1.xml", "<worksheet/>"));
  return p;
}

TEST(OoxmlRelationshipsTest, GraphCheck) {
  std::string root = std::string("<Relationship Id=\"rId1\" Type=\"") + kDocType + "\" Target=\"xl/workbook.xml\"/>";
  // A cycle (the sheet points back at the workbook, the workbook at itself) terminates.
  Package cyclic = GraphPackage(root, "<Relationship Id=\"rId1\" Type=\"s\" Target=\"worksheets/sheet1.xml\"/>"
                                      "<Relationship Id=\"rId2\" Type=\"w\" Target=\"workbook.xml\"/>"
                                      "<Relationship Id=\"rId3\" Type=\"h\" Target=\"https://x/\" TargetMode=\"External\"/>");
  ASSERT_TRUE(cyclic.Set("/xl/worksheets/_rels/sheet1.xml.rels",
                         std::string(kRelsHead) + "<Relationship Id=\"rId1\" Type=\"w\" Target=\"../workbook.xml\"/></Relationships>"));
  EXPECT_TRUE(CheckRelationships(cyclic).ok());

  Package missing = GraphPackage(root, "<Relationship Id=\"rId4\" Type=\"s\" Target=\"worksheets/sheet2.xml\"/>");
  auto m = CheckRelationships(missing);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().fault, Fault::kMissingPart);
  EXPECT_EQ(m.error().message,
            "/xl/worksheets/sheet2.xml: the part is missing; relationship rId4 of /xl/_rels/workbook.xml.rels points at it");

  Package climbing = GraphPackage(root, "<Relationship Id=\"rId1\" Type=\"s\" Target=\"../../x\"/>");
  auto c = CheckRelationships(climbing);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().fault, Fault::kBadRelationship);
  EXPECT_EQ(c.error().message,
            "/xl/_rels/workbook.xml.rels: the relationship target \"../../x\" climbs above the package root");

  Package broken = GraphPackage(root, "");
  ASSERT_TRUE(broken.Set("/xl/_rels/workbook.xml.rels", "not xml"));
  auto b = CheckRelationships(broken);
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.error().fault, Fault::kBadXml);
  EXPECT_EQ(b.error().part, "/xl/_rels/workbook.xml.rels");

  Package none = Package::Empty();
  auto n = CheckRelationships(none);
  ASSERT_FALSE(n.ok());
  EXPECT_EQ(n.error().message, "/_rels/.rels: the package has no relationships part");
}

}  // namespace
}  // namespace sbx::ooxml
