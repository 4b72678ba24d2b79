#include "ooxml/xml.h"

#include <gtest/gtest.h>

namespace sbx::ooxml {
namespace {

TEST(OoxmlXmlTest, ParsesAndWritesWithDeclarationAndNoIndentation) {
  auto doc = ParseXml("<?xml version=\"1.0\"?>\n<a xmlns=\"urn:x\">\n  <b c=\"1&amp;2\">t</b>\n</a>", "/p.xml");
  ASSERT_TRUE(doc.ok()) << doc.error().message;
  EXPECT_EQ(WriteXml(*doc),
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?><a xmlns=\"urn:x\"><b c=\"1&amp;2\">t</b></a>");
}

TEST(OoxmlXmlTest, KeepsAWhitespaceOnlyTextThatIsTheOnlyChild) {
  auto doc = ParseXml("<t xml:space=\"preserve\"> </t>", "/p.xml");
  ASSERT_TRUE(doc.ok());
  EXPECT_STREQ(doc->child("t").text().get(), " ");
}

TEST(OoxmlXmlTest, RejectsDoctypeBillionLaughs) {
  std::string laughs =
      "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">"
      "<!ENTITY lol2 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">"
      "<!ENTITY lol3 \"&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;\">]><lolz>&lol3;</lolz>";
  auto doc = ParseXml(laughs, "/xl/sharedStrings.xml");
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.error().fault, Fault::kBadXml);
  EXPECT_EQ(doc.error().message, "/xl/sharedStrings.xml: a DOCTYPE is not allowed in an OOXML part");
  auto ext = ParseXml("<!DOCTYPE a SYSTEM \"file:///etc/passwd\"><a/>", "/a.xml");
  ASSERT_FALSE(ext.ok());
  EXPECT_EQ(ext.error().message, "/a.xml: a DOCTYPE is not allowed in an OOXML part");
}

TEST(OoxmlXmlTest, DepthBound) {
  std::string deep;
  for (int i = 0; i < 10'000; ++i) deep += "<a>";
  for (int i = 0; i < 10'000; ++i) deep += "</a>";
  auto doc = ParseXml(deep, "/xl/worksheets/sheet1.xml");
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.error().fault, Fault::kTooLarge);
  EXPECT_EQ(doc.error().message, "/xl/worksheets/sheet1.xml: the XML nests deeper than 256 levels");
  std::string ok;
  for (int i = 0; i < 255; ++i) ok += "<a>";
  for (int i = 0; i < 255; ++i) ok += "</a>";
  EXPECT_TRUE(ParseXml(ok, "/p.xml").ok());
}

TEST(OoxmlXmlTest, NodeBound) {
  Limits limits;
  limits.max_xml_nodes = 100;
  std::string many = "<a>";
  for (int i = 0; i < 100; ++i) many += "<b/>";
  many += "</a>";
  auto doc = ParseXml(many, "/p.xml", limits);
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.error().message, "/p.xml: the XML has more than 100 nodes");
}

TEST(OoxmlXmlTest, NotWellFormed) {
  auto doc = ParseXml("<a><b></a>", "/p.xml");
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.error().fault, Fault::kBadXml);
  EXPECT_EQ(doc.error().message, "/p.xml: not well-formed XML: Start-end tags mismatch at offset 8");
  auto empty = ParseXml("", "/p.xml");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().message, "/p.xml: not well-formed XML: No document element found at offset 0");
}

TEST(OoxmlXmlTest, NamespaceHelpers) {
  auto doc = ParseXml(
      "<x:sst xmlns:x=\"urn:main\" xmlns:r=\"urn:rel\"><x:si r:id=\"rId1\"/><x:si/><other/></x:sst>", "/p.xml");
  ASSERT_TRUE(doc.ok());
  pugi::xml_node root = doc->document_element();
  EXPECT_EQ(LocalName(root), "sst");
  EXPECT_EQ(NamespaceOf(root), "urn:main");
  EXPECT_EQ(Children(root, "si").size(), 2u);
  EXPECT_STREQ(Attr(Child(root, "si"), "id").value(), "rId1");
  EXPECT_EQ(NamespaceOf(Child(root, "other")), "");
}

}  // namespace
}  // namespace sbx::ooxml
