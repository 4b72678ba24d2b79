#include "archive/pack.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "archive/archive_test_util.h"
#include "archive/extract.h"

namespace sbx::archive {
namespace {

using testing::ListTree;
using testing::ModeOf;
using testing::ReadAll;
using testing::TempDir;
using testing::WriteFile;

struct Member {
  std::string name;
  mode_t type = 0;
  mode_t perm = 0;
  std::int64_t size = 0;
  std::int64_t uid = -1, gid = -1;
  std::string uname, gname;
  std::string symlink;
  std::time_t mtime = 0;
  std::string data;
};

// Every member of a tar.gz, read back with libarchive (tar + gzip only).
std::vector<Member> ReadMembers(const std::string& path) {
  internal::Utf8LocaleScope utf8;
  std::vector<Member> out;
  struct archive* a = archive_read_new();
  archive_read_support_filter_gzip(a);
  archive_read_support_format_tar(a);
  if (archive_read_open_filename(a, path.c_str(), 65536) != ARCHIVE_OK) {
    ADD_FAILURE() << archive_error_string(a);
    archive_read_free(a);
    return out;
  }
  struct archive_entry* e = nullptr;
  int r;
  while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
    Member m;
    m.name = archive_entry_pathname(e);
    m.type = archive_entry_filetype(e);
    m.perm = archive_entry_perm(e);
    m.size = archive_entry_size(e);
    m.uid = archive_entry_uid(e);
    m.gid = archive_entry_gid(e);
    if (const char* u = archive_entry_uname(e)) m.uname = u;
    if (const char* g = archive_entry_gname(e)) m.gname = g;
    if (const char* s = archive_entry_symlink(e)) m.symlink = s;
    m.mtime = archive_entry_mtime(e);
    char buf[8192];
    la_ssize_t n;
    while ((n = archive_read_data(a, buf, sizeof buf)) > 0) m.data.append(buf, n);
    out.push_back(std::move(m));
  }
  EXPECT_EQ(r, ARCHIVE_EOF) << archive_error_string(a);
  archive_read_free(a);
  return out;
}

void SetMtime(const std::string& path, std::time_t t) {
  struct timespec times[2] = {{t, 0}, {t, 123456789}};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, AT_SYMLINK_NOFOLLOW), 0) << path;
}

std::string Capture(const std::string& cmd) {
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return "<popen failed>";
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int status = ::pclose(p);
  if (status != 0) out += "<exit " + std::to_string(status) + ">";
  return out;
}

const std::string kUml = "\xc3\xbc.txt";  // "ü.txt": sorts after every ASCII name

class PackTest : public ::testing::Test {
 protected:
  // src/
  //   Z            "zed"      0644
  //   a/           0750
  //     empty      ""         0600
  //     x          "x-data"   0640
  //   a.txt        "t"        0644   (after a/ and its children: sorted per level)
  //   b            "bee"      04755  (setuid kept by pack)
  //   fifo                     skipped
  //   out ->  /etc/passwd      stored as a link, never followed
  //   rel ->  a/x
  //   ü.txt        "unicode"  0644
  void BuildTree() {
    const std::string& s = src_.path();
    WriteFile(s + "/Z", "zed", 0644);
    ASSERT_EQ(::mkdir((s + "/a").c_str(), 0750), 0);
    ASSERT_EQ(::chmod((s + "/a").c_str(), 0750), 0);
    WriteFile(s + "/a/empty", "", 0600);
    WriteFile(s + "/a/x", "x-data", 0640);
    WriteFile(s + "/a.txt", "t", 0644);
    WriteFile(s + "/b", "bee", 04755);
    ASSERT_EQ(::mkfifo((s + "/fifo").c_str(), 0644), 0);
    ASSERT_EQ(::symlink("/etc/passwd", (s + "/out").c_str()), 0);
    ASSERT_EQ(::symlink("a/x", (s + "/rel").c_str()), 0);
    WriteFile(s + "/" + kUml, "unicode", 0644);
    std::time_t t = 1'600'000'000;
    for (const char* name : {"Z", "a/empty", "a/x", "a", "a.txt", "b", "out", "rel"}) {
      SetMtime(s + "/" + name, t++);
    }
    SetMtime(s + "/" + kUml, t++);
    ASSERT_EQ(::chmod(s.c_str(), 0711), 0);
    SetMtime(s, 1'500'000'000);
  }

  TempDir src_;
  TempDir work_;
  std::string out_ = work_ / "dump.tar.gz";
};

TEST_F(PackTest, MembersNamesOrderAndMetadata) {
  BuildTree();
  auto stats = PackDirectory(src_.path(), out_);
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  EXPECT_EQ(stats->entries, 10u);
  EXPECT_EQ(stats->content_bytes, 3u + 0u + 6u + 1u + 3u + 7u);

  std::vector<Member> members = ReadMembers(out_);
  std::vector<std::string> names;
  for (const Member& m : members) names.push_back(m.name);
  EXPECT_EQ(names, (std::vector<std::string>{"./", "./Z", "./a/", "./a/empty", "./a/x", "./a.txt",
                                             "./b", "./out", "./rel", "./" + kUml}));
  ASSERT_EQ(members.size(), 10u);

  struct Want {
    mode_t type, perm;
    std::int64_t size;
    std::string data, symlink;
    std::time_t mtime;
  };
  const Want want[] = {
      {AE_IFDIR, 0711, 0, "", "", 1'500'000'000},
      {AE_IFREG, 0644, 3, "zed", "", 1'600'000'000},
      {AE_IFDIR, 0750, 0, "", "", 1'600'000'003},
      {AE_IFREG, 0600, 0, "", "", 1'600'000'001},
      {AE_IFREG, 0640, 6, "x-data", "", 1'600'000'002},
      {AE_IFREG, 0644, 1, "t", "", 1'600'000'004},
      {AE_IFREG, 04755, 3, "bee", "", 1'600'000'005},
      {AE_IFLNK, 0777, 0, "", "/etc/passwd", 1'600'000'006},
      {AE_IFLNK, 0777, 0, "", "a/x", 1'600'000'007},
      {AE_IFREG, 0644, 7, "unicode", "", 1'600'000'008},
  };
  for (std::size_t i = 0; i < members.size(); ++i) {
    SCOPED_TRACE(members[i].name);
    EXPECT_EQ(members[i].type, want[i].type);
    EXPECT_EQ(members[i].perm, want[i].perm);
    EXPECT_EQ(members[i].size, want[i].size);
    EXPECT_EQ(members[i].data, want[i].data);
    EXPECT_EQ(members[i].symlink, want[i].symlink);
    EXPECT_EQ(members[i].mtime, want[i].mtime);
    EXPECT_EQ(members[i].uid, 0);
    EXPECT_EQ(members[i].gid, 0);
    EXPECT_EQ(members[i].uname, "");
    EXPECT_EQ(members[i].gname, "");
  }
}

TEST_F(PackTest, OutputIsPrivateReplacesAnyOldFileAndLeavesNoTemporaries) {
  BuildTree();
  WriteFile(out_, "old junk", 0644);
  WriteFile(work_ / "victim", "keep me", 0644);
  std::string via_link = work_ / "link.tar.gz";
  ASSERT_EQ(::symlink("victim", via_link.c_str()), 0);
  ASSERT_TRUE(PackDirectory(src_.path(), out_).ok());
  ASSERT_TRUE(PackDirectory(src_.path(), via_link).ok());
  EXPECT_EQ(ModeOf(out_), 0600u);
  EXPECT_EQ(ModeOf(via_link), 0600u);  // the link itself was replaced by the archive
  EXPECT_EQ(ReadAll(work_ / "victim"), "keep me");
  EXPECT_EQ(ReadMembers(out_).size(), 10u);
  EXPECT_EQ(ListTree(work_.path()),
            (std::vector<std::string>{"f dump.tar.gz", "f link.tar.gz", "f victim"}));
}

TEST_F(PackTest, OutputIsDeterministic) {
  BuildTree();
  std::string second = work_ / "second.tar.gz";
  ASSERT_TRUE(PackDirectory(src_.path(), out_).ok());
  ASSERT_TRUE(PackDirectory(src_.path(), second).ok());
  std::string a = ReadAll(out_), b = ReadAll(second);
  EXPECT_EQ(a, b);
  ASSERT_GE(a.size(), 10u);
  EXPECT_EQ(a.substr(0, 2), "\x1f\x8b");            // gzip magic
  EXPECT_EQ(a.substr(4, 4), std::string(4, '\0'));  // no timestamp in the gzip header
}

TEST_F(PackTest, MissingSourceFailsWithoutOutput) {
  auto r = PackDirectory(src_ / "nope", out_);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInternal);
  EXPECT_EQ(ListTree(work_.path()), std::vector<std::string>{});
}

TEST_F(PackTest, EmptyDirectoryHasOnlyTheRootMember) {
  ASSERT_EQ(::chmod(src_.path().c_str(), 0755), 0);
  auto stats = PackDirectory(src_.path(), out_);
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  EXPECT_EQ(stats->entries, 1u);
  std::vector<Member> members = ReadMembers(out_);
  ASSERT_EQ(members.size(), 1u);
  EXPECT_EQ(members[0].name, "./");
  EXPECT_EQ(members[0].type, static_cast<mode_t>(AE_IFDIR));
  EXPECT_EQ(members[0].perm, 0755u);
  EXPECT_EQ(members[0].size, 0);
}

TEST_F(PackTest, LargeFileIsStreamedWithProgress) {
  std::string big;
  big.reserve((3 << 20) + 123);
  std::uint32_t x = 12345;
  for (std::size_t i = 0; i < (3u << 20) + 123; ++i) {
    x = x * 1103515245u + 12345u;
    big.push_back(static_cast<char>(x >> 24));
  }
  WriteFile(src_ / "big.bin", big);
  std::vector<std::uint64_t> seen;
  auto stats = PackDirectory(src_.path(), out_, [&](std::uint64_t n) { seen.push_back(n); });
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  EXPECT_EQ(stats->content_bytes, big.size());
  ASSERT_EQ(seen.size(), 49u);  // 64 KiB chunks: 48 full ones and the tail
  EXPECT_EQ(seen.front(), 65536u);
  EXPECT_EQ(seen.back(), big.size());
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
  std::vector<Member> members = ReadMembers(out_);
  ASSERT_EQ(members.size(), 2u);
  EXPECT_EQ(members[1].name, "./big.bin");
  EXPECT_TRUE(members[1].data == big);
}

TEST_F(PackTest, PackThenExtractGivesTheSameTree) {
  BuildTree();
  // ExtractArchive refuses links that leave the tree, so that one goes.
  ASSERT_EQ(::unlink((src_ / "out").c_str()), 0);
  ASSERT_EQ(::unlink((src_ / "fifo").c_str()), 0);
  ASSERT_EQ(::chmod((src_ / "b").c_str(), 0755), 0);  // extraction strips setuid
  // Longer than ustar's 100-byte name field: needs a pax "path" record.
  const std::string long_dir = std::string(120, 'd');
  ASSERT_EQ(::mkdir((src_ / long_dir).c_str(), 0755), 0);
  WriteFile(src_ / (long_dir + "/" + std::string(200, 'f')), "long", 0644);
  SetMtime(src_ / (long_dir + "/" + std::string(200, 'f')), 1'400'000'000);
  SetMtime(src_ / long_dir, 1'400'000'001);
  ASSERT_TRUE(PackDirectory(src_.path(), out_).ok());
  TempDir dest;
  auto r = ExtractArchive(out_, dest.path(), {});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->entries, 10u);
  std::vector<std::string> tree = ListTree(src_.path());
  EXPECT_EQ(ListTree(dest.path()), tree);
  for (const std::string& line : tree) {
    std::string rel = line.substr(2, line.find(" -> ") - 2);
    SCOPED_TRACE(rel);
    struct stat a {
    }, b{};
    ASSERT_EQ(::lstat((src_ / rel).c_str(), &a), 0);
    ASSERT_EQ(::lstat((dest / rel).c_str(), &b), 0);
    EXPECT_EQ(a.st_mtime, b.st_mtime);
    if (S_ISLNK(a.st_mode)) continue;
    EXPECT_EQ(a.st_mode, b.st_mode);
    if (S_ISREG(a.st_mode)) {
      EXPECT_EQ(ReadAll(src_ / rel), ReadAll(dest / rel));
    }
  }
}

TEST_F(PackTest, OutputInsideTheTreeIsNotPacked) {
  WriteFile(src_ / "a", "A");
  std::string inside = src_ / "dump.tar.gz";
  auto stats = PackDirectory(src_.path(), inside);
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  std::vector<Member> members = ReadMembers(inside);
  ASSERT_EQ(members.size(), 2u);
  EXPECT_EQ(members[1].name, "./a");
  // A dump from before is an ordinary file and is packed.
  ASSERT_TRUE(PackDirectory(src_.path(), work_ / "second.tar.gz").ok());
  members = ReadMembers(work_ / "second.tar.gz");
  ASSERT_EQ(members.size(), 3u);
  EXPECT_EQ(members[2].name, "./dump.tar.gz");
}

TEST_F(PackTest, PythonTarfileListsDotThenDotSlashNames) {
  if (::access("/usr/bin/python3", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/python3";
  BuildTree();
  ASSERT_TRUE(PackDirectory(src_.path(), out_).ok());
  std::string script =
      "import sys, tarfile\n"
      "with tarfile.open(sys.argv[1], 'r:gz') as t:\n"
      "    for m in t.getmembers():\n"
      "        sys.stdout.buffer.write(('%s %d %o %s\\n' % (m.name, m.size, m.mode, "
      "m.type.decode()))"
      ".encode('utf-8', 'surrogateescape'))\n";
  WriteFile(work_ / "list.py", script);
  std::string listing = Capture("/usr/bin/python3 " + (work_ / "list.py") + " " + out_);
  EXPECT_EQ(listing,
            ". 0 711 5\n"
            "./Z 3 644 0\n"
            "./a 0 750 5\n"
            "./a/empty 0 600 0\n"
            "./a/x 6 640 0\n"
            "./a.txt 1 644 0\n"
            "./b 3 4755 0\n"
            "./out 0 777 2\n"
            "./rel 0 777 2\n"
            "./" +
                kUml + " 7 644 0\n");
}

TEST_F(PackTest, GnuTarListsTheSameNamesWithoutWarnings) {
  if (::access("/usr/bin/tar", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/tar";
  BuildTree();
  ASSERT_TRUE(PackDirectory(src_.path(), out_).ok());
  EXPECT_EQ(Capture("LC_ALL=C.UTF-8 /usr/bin/tar -tzf " + out_ + " 2>&1"),
            "./\n./Z\n./a/\n./a/empty\n./a/x\n./a.txt\n./b\n./out\n./rel\n./" + kUml + "\n");
}

}  // namespace
}  // namespace sbx::archive
