#include "archive/extract.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "archive/archive_test_util.h"

namespace sbx::archive {
namespace {

using testing::ListTree;
using testing::ModeOf;
using testing::ReadAll;
using testing::TarWriter;
using testing::TempDir;
class ExtractTest : public testing::ExtractFixture {};

// --- names --------------------------------------------------------------

TEST_F(ExtractTest, RefusesDotDotName) {
  TarWriter(archive_).File("../x", "evil");
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "archive entry \"../x\" escapes the workspace (\"..\")");
  EXPECT_EQ(ListTree(dest_), std::vector<std::string>{});
}

TEST_F(ExtractTest, RefusesDotDotInTheMiddleEvenWhenItWouldStayInside) {
  TarWriter(archive_).File("a/../../x", "evil");
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "archive entry \"a/../../x\" escapes the workspace (\"..\")");
  TarWriter(archive_).File("ok", "fine").File("a/../b", "x");
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "archive entry \"a/../b\" escapes the workspace (\"..\")");
}

TEST_F(ExtractTest, RefusesAbsoluteName) {
  TarWriter(archive_).File(outside_abs_, "evil");
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "archive entry \"" + outside_abs_ +
                    "\" has an absolute path: names must be relative to the workspace");
  TarWriter(archive_).File("/etc/x", "evil");
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "archive entry \"/etc/x\" has an absolute path: names must be relative to the "
                "workspace");
  EXPECT_FALSE(fs::Exists("/etc/x"));
}

TEST_F(ExtractTest, RefusesEmptyName) {
  TarWriter(archive_, TarWriter::Format::kGnu).File("", "x");
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument, "archive entry \"\" has an empty name");
}

TEST_F(ExtractTest, NameLengthAndDepthLimits) {
  ExtractLimits limits;
  limits.max_name_bytes = 16;
  limits.max_depth = 3;
  TarWriter(archive_).File("a/b/c", "ok").File("0123456789abcdefX", "x");
  ExpectRefused(Extract(limits), ErrorCode::kTooLarge,
                "archive entry \"0123456789abcdefX\" has a name longer than the limit of 16 bytes");
  TarWriter(archive_).File("a/b/c", "ok").File("a/b/c2/d", "x");
  ExpectRefused(Extract(limits), ErrorCode::kTooLarge,
                "archive entry \"a/b/c2/d\" is nested deeper than the limit of 3 levels");
  TarWriter(archive_).File(std::string(256, 'n'), "x");
  auto r = Extract();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(r.error().message.find("has a path component longer than 255 bytes"),
            std::string::npos);
}

TEST_F(ExtractTest, MessagesEscapeControlAndInvalidUtf8Bytes) {
  TarWriter(archive_, TarWriter::Format::kGnu).File("../a\n\"b\xff\xc3\xbc", "x");
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "archive entry \"../a\\x0a\\\"b\\xff\xc3\xbc\" escapes the workspace (\"..\")");
}

TEST_F(ExtractTest, NormalisesDotSlashDoubleAndTrailingSlashes) {
  TarWriter(archive_)
      .Dir(".")
      .Dir("./")
      .Dir("././a//b/", 0750)
      .File(".//a/./b//f", "data")
      .Dir("c/");
  auto r = Extract();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(ListTree(dest_), (std::vector<std::string>{"d a", "d a/b", "d c", "f a/b/f"}));
  EXPECT_EQ(ModeOf(dest_ + "/a/b"), 0750u);
  EXPECT_EQ(ModeOf(dest_ + "/a"), 0755u);  // implicit parent
  EXPECT_EQ(r->entries, 3u);               // a/b, f, c; "." not counted
  EXPECT_EQ(r->bytes, 4u);
}

TEST_F(ExtractTest, RootEntryThatIsNotADirectoryIsRefused) {
  TarWriter(archive_).Symlink(".", "elsewhere");
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "archive entry \".\" would replace the workspace root with something other "
                "than a directory");
}

// --- special files and modes ------------------------------------------------

TEST_F(ExtractTest, RefusesDevicesFifosAndSockets) {
  TarWriter(archive_).Node("dev/null2", AE_IFCHR, makedev(1, 3));
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "archive entry \"dev/null2\" is a character device: device nodes are not allowed");
  TarWriter(archive_).Node("dev/sda", AE_IFBLK, makedev(8, 0));
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "archive entry \"dev/sda\" is a block device: device nodes are not allowed");
  TarWriter(archive_).Node("pipe", AE_IFIFO);
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "archive entry \"pipe\" is a fifo: fifos are not allowed");
  EXPECT_EQ(ListTree(dest_), std::vector<std::string>{});
}

TEST_F(ExtractTest, StripsSetuidSetgidAndSticky) {
  TarWriter(archive_)
      .File("suid", "#!/bin/sh\n", 04755)
      .File("sgid", "x", 02711)
      .Dir("shared", 02775)
      .Dir("tmp", 01777)
      .File("plain", "p", 0600);
  auto r = Extract();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(ModeOf(dest_ + "/suid"), 0755u);
  EXPECT_EQ(ModeOf(dest_ + "/sgid"), 0711u);
  EXPECT_EQ(ModeOf(dest_ + "/shared"), 0775u);
  EXPECT_EQ(ModeOf(dest_ + "/tmp"), 0777u);
  EXPECT_EQ(ModeOf(dest_ + "/plain"), 0600u);
}

// --- replacement ------------------------------------------------------------

TEST_F(ExtractTest, LaterFileReplacesEarlierFile) {
  TarWriter(archive_).File("f", "first version", 0600).File("f", "second", 0644);
  auto r = Extract();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(ReadAll(dest_ + "/f"), "second");
  EXPECT_EQ(ModeOf(dest_ + "/f"), 0644u);
}

TEST_F(ExtractTest, FileAndDirectoryDoNotReplaceEachOther) {
  TarWriter(archive_).Dir("d").File("d", "x");
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "archive entry \"d\" would replace a directory of the same name");
  TarWriter(archive_).File("f", "x").Dir("f");
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "archive entry \"f/\" is a directory but an earlier entry of the same name is not");
  TarWriter(archive_).File("f2", "x").File("f2/child", "y");
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "archive entry \"f2/child\" lies below \"f2\", which is not a directory");
}

// --- limits -----------------------------------------------------------------

TEST_F(ExtractTest, EntryCountBomb) {
  ExtractLimits limits;
  limits.max_entries = 10;
  {
    TarWriter w(archive_);
    w.Dir(".");
    for (int i = 0; i < 10; ++i) w.File("f" + std::to_string(i), "x");
  }
  auto ok = Extract(limits);
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(ok->entries, 10u);
  ASSERT_EQ(fs::RemoveTree(dest_).ok(), true);
  ASSERT_EQ(::mkdir(dest_.c_str(), 0755), 0);
  {
    TarWriter w(archive_);
    for (int i = 0; i < 1000; ++i) w.File("f" + std::to_string(i), "x");
  }
  ExpectRefused(Extract(limits), ErrorCode::kTooLarge,
                "archive has more than the limit of 10 entries");
  EXPECT_EQ(ListTree(dest_).size(), 10u);
}

TEST_F(ExtractTest, RepeatedRootEntriesCountAgainstTheEntryLimit) {
  ExtractLimits limits;
  limits.max_entries = 10;
  {
    TarWriter w(archive_);
    for (int i = 0; i < 11; ++i) w.Dir("./");
  }
  auto ok = Extract(limits);
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(ok->entries, 0u);
  TarWriter(archive_).Dir("./").Dir(".").Dir("./");
  limits.max_entries = 1;
  ExpectRefused(Extract(limits), ErrorCode::kTooLarge,
                "archive has more than the limit of 1 entries");
}

TEST_F(ExtractTest, SizeBombInOneMemberStopsBeforeWriting) {
  ExtractLimits limits;
  limits.max_total_bytes = 10 << 20;
  TarWriter(archive_).File("small", "ok").Zeros("zeros", 50 << 20);
  struct stat st {};
  ASSERT_EQ(::stat(archive_.c_str(), &st), 0);
  EXPECT_LT(st.st_size, 1 << 20);  // it really is a bomb: tiny on the wire
  ExpectRefused(Extract(limits), ErrorCode::kTooLarge,
                "archive expands past the limit of 10485760 bytes");
  EXPECT_EQ(ListTree(dest_), std::vector<std::string>{"f small"});
  EXPECT_EQ(fs::TreeSize(dest_).value(), 2u);
}

TEST_F(ExtractTest, SizeBombAcrossMembersStopsAtTheLimit) {
  ExtractLimits limits;
  limits.max_total_bytes = 10 << 20;
  {
    TarWriter w(archive_);
    for (int i = 0; i < 50; ++i) w.Zeros("z" + std::to_string(100 + i), 1 << 20);
  }
  ExpectRefused(Extract(limits), ErrorCode::kTooLarge,
                "archive expands past the limit of 10485760 bytes");
  EXPECT_EQ(ListTree(dest_).size(), 10u);
  EXPECT_EQ(fs::TreeSize(dest_).value(), 10u << 20);
}

TEST_F(ExtractTest, SparseFileCountsItsFullSize) {
  TarWriter(archive_).Sparse("sparse", 1 << 20, 512 << 10, "middle");
  auto r = Extract();
  ASSERT_TRUE(r.ok()) << r.error().message;
  std::string data = ReadAll(dest_ + "/sparse");
  ASSERT_EQ(data.size(), 1u << 20);
  EXPECT_EQ(data.substr(512 << 10, 6), "middle");
  EXPECT_EQ(data.find_first_not_of('\0'), static_cast<std::size_t>(512 << 10));
  EXPECT_EQ(data.find_last_not_of('\0'), static_cast<std::size_t>((512 << 10) + 5));
  EXPECT_EQ(r->bytes, 6u);

  ExtractLimits limits;
  limits.max_total_bytes = (1 << 20) - 1;
  ASSERT_TRUE(fs::RemoveTree(dest_).ok());
  ASSERT_EQ(::mkdir(dest_.c_str(), 0755), 0);
  ExpectRefused(Extract(limits), ErrorCode::kTooLarge,
                "archive expands past the limit of 1048575 bytes");
}

// --- not archives -----------------------------------------------------------

void ExpectNotTarGz(const Result<ExtractStats>& r) {
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(r.error().message.rfind("not a valid tar.gz archive: ", 0), 0u) << r.error().message;
}

TEST_F(ExtractTest, EmptyFileIsNotAnArchive) {
  testing::WriteFile(archive_, "");
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "not a valid tar.gz archive: the file is empty");
}

TEST_F(ExtractTest, GarbageIsNotAnArchive) {
  std::string garbage;
  for (int i = 0; i < 4096; ++i) garbage.push_back(static_cast<char>((i * 7919 + 13) % 251));
  testing::WriteFile(archive_, garbage);
  auto r = Extract();
  ExpectNotTarGz(r);
  EXPECT_EQ(Outside(), std::vector<std::string>{"d dest"});
  EXPECT_EQ(ListTree(dest_), std::vector<std::string>{});
}

TEST_F(ExtractTest, TruncatedGzipIsRefused) {
  {
    TarWriter w(archive_);
    for (int i = 0; i < 20; ++i) {
      std::string data;
      for (int k = 0; k < 5000; ++k) data.push_back(static_cast<char>('a' + (k * i + k / 7) % 26));
      w.File("f" + std::to_string(i), data);
    }
  }
  std::string whole = ReadAll(archive_);
  ASSERT_GT(whole.size(), 1000u);
  testing::WriteFile(archive_, whole.substr(0, whole.size() / 2));
  auto r = Extract();
  ExpectNotTarGz(r);
  EXPECT_EQ(Outside(), std::vector<std::string>{"d dest"});
  // Only a gzip header and a few bytes.
  testing::WriteFile(archive_, whole.substr(0, 12));
  ExpectNotTarGz(Extract());
}

TEST_F(ExtractTest, OtherFormatsAndFiltersAreRefused) {
  TarWriter(archive_, TarWriter::Format::kZip, false).File("a", "zip member");
  ExpectNotTarGz(Extract());
  EXPECT_EQ(ListTree(dest_), std::vector<std::string>{});
}

TEST_F(ExtractTest, EmptyTarIsAnEmptyTree) {
  TarWriter(archive_).Close();
  auto r = Extract();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->entries, 0u);
  EXPECT_EQ(ListTree(dest_), std::vector<std::string>{});
}

// --- a real tree --------------------------------------------------------------

void ExpectRoundTrip(const std::string& dest, const Result<ExtractStats>& r) {
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(ListTree(dest),
            (std::vector<std::string>{"d docs", "d docs/deep", "d docs/deep/er", "d src",
                                      "f README.md", "f docs/deep/er/empty",
                                      "f docs/\xc3\xbc"
                                      "ber-na\xc3\xafve \xe2\x98\x83.txt",
                                      "f docs/\xe6\x97\xa5\xe6\x9c\xac.md", "f run.sh",
                                      "f src/main.c", "l latest -> docs/deep"}));
  EXPECT_EQ(ReadAll(dest + "/README.md"), "# hello\n");
  EXPECT_EQ(ReadAll(dest + "/run.sh"), "#!/bin/sh\necho hi\n");
  EXPECT_EQ(ReadAll(dest + "/docs/deep/er/empty"), "");
  EXPECT_EQ(ReadAll(dest + "/docs/\xc3\xbc"
                           "ber-na\xc3\xafve \xe2\x98\x83.txt"),
            "unicode");
  EXPECT_EQ(ModeOf(dest + "/run.sh"), 0755u);
  EXPECT_EQ(ModeOf(dest + "/README.md"), 0644u);
  EXPECT_EQ(ModeOf(dest + "/src/main.c"), 0600u);
  EXPECT_EQ(ModeOf(dest + "/docs"), 0750u);
  EXPECT_EQ(ModeOf(dest + "/docs/deep"), 0755u);  // implicit
  EXPECT_EQ(ModeOf(dest + "/src"), 0700u);
  struct stat st {};
  ASSERT_EQ(::stat((dest + "/run.sh").c_str(), &st), 0);
  EXPECT_EQ(st.st_mtime, testing::kTestMtime);
  ASSERT_EQ(::stat((dest + "/docs").c_str(), &st), 0);
  EXPECT_EQ(st.st_mtime, testing::kTestMtime);  // set after its children were created
  EXPECT_EQ(r->entries, 9u);
  EXPECT_EQ(r->bytes, 8u + 18u + 7u + 6u + 11u);
}

void WriteRealTree(const std::string& path, TarWriter::Format format, bool gzip) {
  TarWriter(path, format, gzip)
      .Dir("./")
      .File("./README.md", "# hello\n")
      .File("./run.sh", "#!/bin/sh\necho hi\n", 0755)
      .Dir("./docs/", 0750)
      .File(
          "./docs/\xc3\xbc"
          "ber-na\xc3\xafve \xe2\x98\x83.txt",
          "unicode")
      .File("./docs/\xe6\x97\xa5\xe6\x9c\xac.md", "nihon!")
      .File("./docs/deep/er/empty", "")
      .Dir("./src/", 0700)
      .File("./src/main.c", "int main;\n\n", 0600)
      .Symlink("./latest", "docs/deep");
}

TEST_F(ExtractTest, ValidPaxTarGzRoundTripsExactly) {
  WriteRealTree(archive_, TarWriter::Format::kPax, true);
  ExpectRoundTrip(dest_, Extract());
  EXPECT_EQ(Outside(), std::vector<std::string>{"d dest"});
}

TEST_F(ExtractTest, ValidGnuTarGzRoundTripsExactly) {
  WriteRealTree(archive_, TarWriter::Format::kGnu, true);
  ExpectRoundTrip(dest_, Extract());
}

TEST_F(ExtractTest, UncompressedUstarIsAccepted) {
  WriteRealTree(archive_, TarWriter::Format::kUstar, false);
  ExpectRoundTrip(dest_, Extract());
}

TEST_F(ExtractTest, GnuTarOutputIsAccepted) {
  if (::access("/usr/bin/tar", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/tar";
  TempDir src;
  ASSERT_EQ(::mkdir((src / "a").c_str(), 0755), 0);
  testing::WriteFile(src / "a/x", "hi", 0640);
  std::string cmd = "/usr/bin/tar -C " + src.path() + " -czf " + archive_ + " .";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  auto r = Extract();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(ListTree(dest_), (std::vector<std::string>{"d a", "f a/x"}));
  EXPECT_EQ(ModeOf(dest_ + "/a/x"), 0640u);
  EXPECT_EQ(r->entries, 2u);
}

}  // namespace
}  // namespace sbx::archive
