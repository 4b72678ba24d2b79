#include "ooxml/package.h"

#include <gtest/gtest.h>
#include <zip.h>

#include "ooxml/ooxml_test_util.h"

namespace sbx::ooxml {
namespace {

using test::RawEntry;
using test::RawZip;

RawEntry Ct() { return RawEntry{"[Content_Types].xml", test::kMinimalContentTypes}; }

void ExpectFault(const Result<Package>& r, Fault fault, const std::string& message) {
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(FaultName(r.error().fault), FaultName(fault)) << r.error().message;
  EXPECT_EQ(r.error().message, message);
}

TEST(OoxmlPackageTest, RoundTripKeepsOrderBytesAndIsDeterministic) {
  Package p = Package::Empty();
  ASSERT_TRUE(p.Set("/xl/workbook.xml", "<workbook/>"));
  ASSERT_TRUE(p.Set("/[Content_Types].xml", test::kMinimalContentTypes));
  ASSERT_TRUE(p.Set("/docProps/app.xml", std::string(100000, 'a')));
  ASSERT_TRUE(p.Set("/empty.bin", ""));
  auto zip = p.Write();
  ASSERT_TRUE(zip.ok()) << zip.error().message;
  auto again = p.Write();
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*zip, *again);

  auto back = Package::Read(*zip);
  ASSERT_TRUE(back.ok()) << back.error().message;
  // Content types first in the zip, then the order given.
  EXPECT_EQ(back->Names(), (std::vector<std::string>{"/[Content_Types].xml", "/xl/workbook.xml", "/docProps/app.xml",
                                                     "/empty.bin"}));
  EXPECT_EQ(*back->Bytes("/XL/Workbook.XML"), "<workbook/>");
  EXPECT_EQ(back->Bytes("/docProps/app.xml")->size(), 100000u);
  EXPECT_EQ(*back->Bytes("/empty.bin"), "");
}

TEST(OoxmlPackageTest, SetReplacesInPlaceIgnoringCaseAndRemove) {
  Package p = Package::Empty();
  ASSERT_TRUE(p.Set("/a.xml", "1"));
  ASSERT_TRUE(p.Set("/b.xml", "2"));
  ASSERT_TRUE(p.Set("/A.XML", "3"));
  EXPECT_EQ(p.Names(), (std::vector<std::string>{"/a.xml", "/b.xml"}));
  EXPECT_EQ(*p.Bytes("/a.xml"), "3");
  EXPECT_TRUE(p.Remove("/B.xml"));
  EXPECT_FALSE(p.Remove("/b.xml"));
  auto missing = p.Bytes("/b.xml");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().fault, Fault::kMissingPart);
  EXPECT_EQ(missing.error().message, "/b.xml: no such part in the package");
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
  auto bad = p.Set("a.xml", "");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "a.xml: invalid part name: it must start with '/' (a zip entry name must not)");
  auto w = p.Write();
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().fault, Fault::kMissingPart);
}

TEST(OoxmlPackageTest, WrittenZipPassesPythonZipfileAndUnzip) {
  if (!test::HavePython()) GTEST_SKIP() << "/usr/bin/python3 is not installed";
  Package p = Package::Empty();
  ASSERT_TRUE(p.Set("/[Content_Types].xml", test::kMinimalContentTypes));
  ASSERT_TRUE(p.Set("/x/y.xml", "<y>text</y>"));
  auto zip = p.Write();
  ASSERT_TRUE(zip.ok());
  auto r = test::RunPython(
      "import sys, zipfile\n"
      "z = zipfile.ZipFile(sys.argv[1])\n"
      "print(z.testzip(), [(i.filename, i.date_time, i.compress_type) for i in z.infolist()])\n"
      "import os, subprocess\n"
      "if os.access('/usr/bin/unzip', os.X_OK):\n"
      "    t = subprocess.run(['/usr/bin/unzip', '-tq', sys.argv[1]], capture_output=True, text=True)\n"
      "    print(t.returncode, t.stdout.strip())\n"
      "else:\n"
      "    print(0, 'No errors detected in compressed data of (unzip absent)')\n",
      *zip, ".zip");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.output.substr(0, r.output.find("\n0 No errors detected in compressed data of ")),
            "None [('[Content_Types].xml', (1980, 1, 1, 0, 0, 0), 8), ('x/y.xml', (1980, 1, 1, 0, 0, 0), 8)]");
  EXPECT_NE(r.output.find("\n0 No errors detected in compressed data of "), std::string::npos) << r.output;
}

TEST(OoxmlPackageTest, MissingContentTypes) {
  ExpectFault(Package::Read(RawZip({RawEntry{"xl/workbook.xml", "<w/>"}})), Fault::kMissingPart,
              "/[Content_Types].xml: the package has no [Content_Types].xml: not an OOXML file");
}

TEST(OoxmlPackageTest, DirectoryEntriesAreSkipped) {
  auto r = Package::Read(RawZip({Ct(), RawEntry{"xl/", "", false}, RawEntry{"xl/a.xml", "<a/>"}}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->Names(), (std::vector<std::string>{"/[Content_Types].xml", "/xl/a.xml"}));
}

TEST(OoxmlPackageTest, BadEntryNames) {
  ExpectFault(Package::Read(RawZip({Ct(), RawEntry{"../evil", "x"}})), Fault::kBadEntryName,
              "/../evil: invalid part name: it has a '.' or '..' segment");
  ExpectFault(Package::Read(RawZip({Ct(), RawEntry{"xl/../../evil", "x"}})), Fault::kBadEntryName,
              "/xl/../../evil: invalid part name: it has a '.' or '..' segment");
  ExpectFault(Package::Read(RawZip({Ct(), RawEntry{"/abs", "x"}})), Fault::kBadEntryName,
              "/abs: invalid part name: the zip entry name is absolute");
  ExpectFault(Package::Read(RawZip({Ct(), RawEntry{"a\\b", "x"}})), Fault::kBadEntryName,
              "/a\\b: invalid part name: it contains a backslash");
  ExpectFault(Package::Read(RawZip({Ct(), RawEntry{std::string("a\0b", 3), "x"}})), Fault::kBadEntryName,
              "a\\x00b: invalid part name: it contains a NUL byte");
  ExpectFault(Package::Read(RawZip({Ct(), RawEntry{"xl//a.xml", "x"}})), Fault::kBadEntryName,
              "/xl//a.xml: invalid part name: it has an empty segment");
  ExpectFault(Package::Read(RawZip({Ct(), RawEntry{"a\nb", "x"}})), Fault::kBadEntryName,
              "/a\\x0ab: invalid part name: it contains a control character");
}

TEST(OoxmlPackageTest, DuplicateNamesIgnoringCase) {
  ExpectFault(Package::Read(RawZip({Ct(), RawEntry{"xl/a.xml", "1"}, RawEntry{"XL/A.xml", "2"}})),
              Fault::kDuplicatePart, "/XL/A.xml: the part occurs twice (names compare ignoring case)");
  ExpectFault(Package::Read(RawZip({Ct(), RawEntry{"xl/a.xml", "1"}, RawEntry{"xl/a.xml", "2"}})),
              Fault::kDuplicatePart, "/xl/a.xml: the part occurs twice (names compare ignoring case)");
}

TEST(OoxmlPackageTest, LyingSizeInflatesPastTheBound) {
  Limits limits;
  limits.max_part_bytes = 1 << 20;
  RawEntry bomb{"xl/bomb.xml", std::string(4 << 20, 'a')};
  bomb.claimed_size = 10;
  ExpectFault(Package::Read(RawZip({Ct(), bomb}), limits), Fault::kTooLarge,
              "/xl/bomb.xml: the part inflates past the limit of 1048576 bytes");
}

TEST(OoxmlPackageTest, LyingSmallSizeIsNotBelieved) {
  // The header claims 10 bytes; the data (and its CRC) say 1000: the data wins.
  RawEntry liar{"xl/a.xml", std::string(1000, 'a')};
  liar.claimed_size = 10;
  auto r = Package::Read(RawZip({Ct(), liar}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r->Bytes("/xl/a.xml"), std::string(1000, 'a'));
}

TEST(OoxmlPackageTest, RatioBombOverTheTotal) {
  Limits limits;
  limits.max_part_bytes = 3 << 20;
  limits.max_total_bytes = 4 << 20;
  // Each part is honest and under the part bound; together they are not.
  ExpectFault(Package::Read(RawZip({Ct(), RawEntry{"a.xml", std::string(3 << 20, 'a')},
                                    RawEntry{"b.xml", std::string(3 << 20, 'b')}}),
                            limits),
              Fault::kTooLarge, "/b.xml: the package inflates past the limit of 4194304 bytes in all");
}

TEST(OoxmlPackageTest, PackageBytesBound) {
  Limits limits;
  limits.max_package_bytes = 100;
  ExpectFault(Package::Read(RawZip({Ct()}), limits), Fault::kTooLarge,
              "the package is " + std::to_string(RawZip({Ct()}).size()) + " bytes, over the limit of 100");
}

TEST(OoxmlPackageTest, TooManyEntries) {
  std::vector<RawEntry> entries{Ct()};
  for (int i = 0; i < 10'000; ++i) entries.push_back(RawEntry{"p" + std::to_string(i), "", false});
  ExpectFault(Package::Read(RawZip(entries)), Fault::kTooLarge, "the package has 10001 entries, over the limit of 10000");
}

TEST(OoxmlPackageTest, EncryptedEntry) {
  RawEntry e{"xl/a.xml", "secret", false};
  e.flags = 1;
  ExpectFault(Package::Read(RawZip({Ct(), e})), Fault::kEncrypted, "/xl/a.xml: the entry is encrypted");
}

TEST(OoxmlPackageTest, TruncatedAndRandomBytes) {
  std::string zip = RawZip({Ct(), RawEntry{"xl/a.xml", std::string(5000, 'x')}});
  for (std::size_t cut : {zip.size() - 1, zip.size() / 2, std::size_t{30}, std::size_t{0}}) {
    auto r = Package::Read(std::string_view(zip).substr(0, cut));
    ASSERT_FALSE(r.ok()) << cut;
    EXPECT_EQ(r.error().fault, Fault::kNotZip) << cut << " " << r.error().message;
  }
  EXPECT_EQ(Package::Read("").error().message, "not a valid zip archive (the file is empty)");
  std::string noise;
  std::uint32_t x = 12345;
  for (int i = 0; i < 4096; ++i) {
    x = x * 1103515245 + 12345;
    noise += static_cast<char>(x >> 24);
  }
  auto r = Package::Read(noise);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().fault, Fault::kNotZip);
  EXPECT_EQ(r.error().message, "not a valid zip archive (Not a zip archive)");
}

TEST(OoxmlPackageTest, CorruptDeflateData) {
  std::string zip = RawZip({Ct(), RawEntry{"xl/a.xml", std::string(5000, 'x') + "tail"}});
  // Flip bytes inside the second entry's compressed data.
  auto at = zip.find("xl/a.xml") + 8 + 2;
  zip[at] ^= 0x55;
  zip[at + 1] ^= 0x55;
  auto r = Package::Read(zip);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().fault, Fault::kCorruptEntry) << r.error().message;
  EXPECT_EQ(r.error().part, "/xl/a.xml");
}

TEST(OoxmlPackageTest, CheckPartName) {
  EXPECT_TRUE(CheckPartName("/xl/worksheets/sheet1.xml"));
  EXPECT_TRUE(CheckPartName("/[Content_Types].xml"));
  EXPECT_FALSE(CheckPartName("/"));
  EXPECT_FALSE(CheckPartName("/a/"));
  EXPECT_FALSE(CheckPartName("/a/./b"));
  EXPECT_FALSE(CheckPartName("/a."));
  EXPECT_FALSE(CheckPartName("/\xff"));
  EXPECT_TRUE(SamePartName("/Xl/A.xml", "/xL/a.XML"));
  EXPECT_FALSE(SamePartName("/a.xml", "/b.xml"));
}

}  // namespace
}  // namespace sbx::ooxml
