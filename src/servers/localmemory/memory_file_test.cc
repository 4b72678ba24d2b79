// The memory file on disk: creation, atomic replacement, size bounds, and
// confinement to the workspace against links planted before or during a
// call (each test also checks nothing appeared outside). Plus the settings.
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <map>
#include <thread>

#include "servers/localmemory/memory_file.h"
#include "servers/localmemory/test_support.h"

namespace sbx::servers::localmemory::testing {
namespace {

class MemoryFileTest : public MemoryTest {
 protected:
  MemoryFile File(const std::string& rel, std::uint64_t max = 1 << 20) const {
    return MemoryFile(root_, rel, max);
  }
  void Link(const std::string& target, const std::string& rel) const {
    ASSERT_EQ(::symlink(target.c_str(), (root_ + "/" + rel).c_str()), 0) << rel;
  }
  // Nothing beside the workspace (outside/, root2/, rootbase/) changed.
  void ExpectOutsideUntouched() const {
    EXPECT_EQ(test_support::TreeSnapshot(base_, {root_}), outside_before_);
  }
  void SetUp() override {
    MemoryTest::SetUp();
    WriteAbs(outside_ + "/keep.txt", "outside\n");
    outside_before_ = test_support::TreeSnapshot(base_, {root_});
  }
  std::map<std::string, std::string> outside_before_;
};

TEST_F(MemoryFileTest, MissingFileReadsAsAbsent) {
  auto r = File("none/m.json").Read();
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->has_value());
  EXPECT_EQ(File("m.json").shown_path(), root_ + "/m.json");
}

TEST_F(MemoryFileTest, WriteCreatesParentsAndLeavesOnlyTheFile) {
  MemoryFile f = File("a/b/m.json");
  ASSERT_TRUE(f.Write("line1\nline2").ok());
  EXPECT_EQ(ReadAbs(root_ + "/a/b/m.json"), "line1\nline2");
  EXPECT_EQ(Names(root_ + "/a/b"), std::vector<std::string>{"m.json"});
  ASSERT_TRUE(f.Write("").ok());
  EXPECT_EQ(ReadAbs(root_ + "/a/b/m.json"), "");
  auto r = f.Read();
  ASSERT_TRUE(r.ok() && r->has_value());
  EXPECT_EQ(**r, "");
}

TEST_F(MemoryFileTest, WriteReplacesTheFileRatherThanChangingItsInode) {
  WriteAbs(root_ + "/m.json", "old");
  ASSERT_EQ(::link((root_ + "/m.json").c_str(), (root_ + "/other").c_str()), 0);
  ASSERT_TRUE(File("m.json").Write("new").ok());
  EXPECT_EQ(ReadAbs(root_ + "/m.json"), "new");
  EXPECT_EQ(ReadAbs(root_ + "/other"), "old");  // as upstream: a new file renamed over the name
  EXPECT_EQ(Names(root_), (std::vector<std::string>{"m.json", "other"}));
}

TEST_F(MemoryFileTest, LinksThatStayInsideAreFollowed) {
  ASSERT_EQ(::mkdir((root_ + "/real").c_str(), 0755), 0);
  Link("real", "dir");
  ASSERT_TRUE(File("dir/m.json").Write("x").ok());
  EXPECT_EQ(ReadAbs(root_ + "/real/m.json"), "x");
  Link(root_ + "/real/m.json",
       "alias.json");  // absolute target: outside as far as the kernel can tell
  Link("real/m.json", "rel.json");
  auto r = File("rel.json").Read();
  ASSERT_TRUE(r.ok() && r->has_value());
  EXPECT_EQ(**r, "x");
  EXPECT_FALSE(File("alias.json").Read().ok());
}

TEST_F(MemoryFileTest, DirectoryLinksLeavingTheWorkspaceAreRefused) {
  Link(outside_, "abs");
  Link("../outside", "rel");
  Link("../root2", "sibling");
  Link("/", "slash");
  for (const std::string dir : {"abs", "rel", "sibling", "slash"}) {
    MemoryFile f = File(dir + "/m.json");
    auto w = f.Write("data");
    ASSERT_FALSE(w.ok()) << dir;
    EXPECT_EQ(w.error().message,
              "The memory file path " + root_ + "/" + dir + " leads outside the workspace " +
                  root_ +
                  " (through a symbolic link); refusing to follow it. Replace that link with "
                  "a directory or file inside the workspace.");
    auto r = f.Read();
    ASSERT_FALSE(r.ok()) << dir;
    EXPECT_EQ(r.error().message,
              "The memory file path " + root_ + "/" + dir + "/m.json" +
                  " leads outside the workspace " + root_ +
                  " (through a symbolic link); refusing to follow it. Replace that link with "
                  "a directory or file inside the workspace.");
    // Deeper: the missing directories below the link are not created outside.
    EXPECT_FALSE(File(dir + "/x/y/m.json").Write("data").ok());
  }
  ExpectOutsideUntouched();
}

TEST_F(MemoryFileTest, AFileLinkLeavingTheWorkspaceIsNeverWrittenThrough) {
  Link(outside_ + "/keep.txt", "m.json");
  EXPECT_FALSE(File("m.json").Read().ok());
  // Write replaces the link itself (rename over it), as upstream's rename does.
  ASSERT_TRUE(File("m.json").Write("inside").ok());
  struct stat st;
  ASSERT_EQ(::lstat((root_ + "/m.json").c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  EXPECT_EQ(ReadAbs(root_ + "/m.json"), "inside");
  ExpectOutsideUntouched();
}

TEST_F(MemoryFileTest, NonFilesAtThePathAreErrors) {
  ASSERT_EQ(::mkdir((root_ + "/dir.json").c_str(), 0755), 0);
  auto r = File("dir.json").Read();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "EISDIR: illegal operation on a directory, read");  // Node's readFile text
  auto w = File("dir.json").Write("x");
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().message.rfind(
                "EISDIR: illegal operation on a directory, rename '" + root_ + "/dir.json.", 0),
            0u)
      << w.error().message;
  EXPECT_EQ(Names(root_), std::vector<std::string>{"dir.json"});  // no temp file left

  ASSERT_EQ(::mkfifo((root_ + "/fifo.json").c_str(), 0644), 0);
  auto f = File("fifo.json").Read();  // must not block
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(
      f.error().message,
      "The memory file " + root_ +
          "/fifo.json is not a regular file (a FIFO, socket or device); refusing to read it.");

  WriteAbs(root_ + "/plain", "x");
  auto n = File("plain/m.json").Read();
  ASSERT_FALSE(n.ok());
  EXPECT_EQ(n.error().message, "ENOTDIR: not a directory, open '" + root_ + "/plain/m.json'");
  auto nw = File("plain/m.json").Write("x");
  ASSERT_FALSE(nw.ok());
  EXPECT_EQ(nw.error().message, "ENOTDIR: not a directory, open '" + root_ + "/plain'");
}

TEST_F(MemoryFileTest, SizeIsBounded) {
  WriteAbs(root_ + "/m.json", std::string(11, 'x'));
  auto r = File("m.json", 10).Read();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "The memory file " + root_ +
                "/m.json is 11 bytes, more than the 10 bytes this server reads; nothing was read "
                "or changed.");
  auto w = File("m.json", 10).Write(std::string(11, 'y'));
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().message,
            "The memory file " + root_ +
                "/m.json would grow to 11 bytes, more than the 10 bytes this server allows; "
                "nothing was changed.");
  EXPECT_EQ(ReadAbs(root_ + "/m.json"), std::string(11, 'x'));
  EXPECT_TRUE(File("m.json", 10).Write(std::string(10, 'z')).ok());
  EXPECT_TRUE(File("m.json", 10).Read().ok());
}

TEST_F(MemoryFileTest, AMissingWorkspaceIsReported) {
  MemoryFile f(base_ + "/gone", "m.json", 100);
  auto r = f.Read();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(
      r.error().message,
      "The workspace " + base_ +
          "/gone cannot be opened (No such file or directory); the memory file lives inside it.");
}

// A thread keeps exchanging "d" (a real directory) with "alt" (a link to
// the outside) while calls read and write d/m.json: whatever interleaving
// the kernel sees, nothing may land outside.
TEST_F(MemoryFileTest, LinksSwappedInDuringCallsCannotRedirectThem) {
  const std::string d = root_ + "/d", alt = root_ + "/alt";
  ASSERT_EQ(::mkdir(d.c_str(), 0755), 0);
  ASSERT_EQ(::symlink(outside_.c_str(), alt.c_str()), 0);
  std::atomic<bool> stop{false};
  std::atomic<int> swaps{0};
  std::thread swapper([&] {
    while (!stop.load())
      if (::renameat2(AT_FDCWD, d.c_str(), AT_FDCWD, alt.c_str(), RENAME_EXCHANGE) == 0) ++swaps;
  });
  MemoryFile f = File("d/m.json");
  int writes = 0, refusals = 0;
  for (int i = 0; i < 2000; ++i) {
    auto w = f.Write("v" + std::to_string(i));
    if (w.ok())
      ++writes;
    else if (w.error().message.find("leads outside the workspace") != std::string::npos)
      ++refusals;
    (void)f.Read();
  }
  stop = true;
  swapper.join();
  ExpectOutsideUntouched();
  EXPECT_GT(swaps.load(), 0);
  EXPECT_EQ(writes + refusals, 2000);  // every call either wrote inside or refused
}

// ------------------------------------------------------------------ settings

TEST(LocalMemoryOptions, DefaultsAndPaths) {
  auto d = OptionsFromSettings(Json::object());
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->workspace, "/data");
  EXPECT_EQ(d->memory_file, "repos/memory_mcp_server/memories-for-mcp.json");
  EXPECT_EQ(d->max_file_bytes, 8u << 20);
  auto abs = OptionsFromSettings(
      Json{{"memory_file_path", "/data/memory/memory.json"}, {"max_file_bytes", 1000}});
  ASSERT_TRUE(abs.ok());
  EXPECT_EQ(abs->memory_file, "memory/memory.json");
  EXPECT_EQ(abs->max_file_bytes, 1000u);
  auto rel = OptionsFromSettings(Json{{"memory_file_path", "memory.jsonl"}});
  ASSERT_TRUE(rel.ok());
  EXPECT_EQ(rel->memory_file, "memory.jsonl");
}

TEST(LocalMemoryOptions, BadSettingsAreRefusedClearly) {
  auto err = [](const Json& s) {
    auto o = OptionsFromSettings(s);
    EXPECT_FALSE(o.ok()) << s.dump();
    return o.ok() ? std::string() : o.error().message;
  };
  const std::string inside =
      " must lie inside the workspace /data (absolute, or relative to /data)";
  EXPECT_EQ(err({{"memory_file_path", "/etc/passwd"}}),
            "localmemory: memory_file_path \"/etc/passwd\"" + inside);
  EXPECT_EQ(err({{"memory_file_path", "/data2/m.json"}}),
            "localmemory: memory_file_path \"/data2/m.json\"" + inside);
  EXPECT_EQ(err({{"memory_file_path", "/data"}}),
            "localmemory: memory_file_path \"/data\"" + inside);
  EXPECT_EQ(err({{"memory_file_path", "/data/"}}),
            "localmemory: memory_file_path \"/data/\" must name a file, not a directory");
  EXPECT_EQ(err({{"memory_file_path", "a/../../etc/x"}}),
            "localmemory: memory_file_path \"a/../../etc/x\" must not contain \".\" or \"..\" "
            "components");
  EXPECT_EQ(
      err({{"memory_file_path", "/data/./m"}}),
      "localmemory: memory_file_path \"/data/./m\" must not contain \".\" or \"..\" components");
  EXPECT_EQ(err({{"memory_file_path", "a//m"}}),
            "localmemory: memory_file_path \"a//m\" has an empty component (\"//\")");
  EXPECT_EQ(err({{"memory_file_path", ""}}), "localmemory: memory_file_path must not be empty");
  EXPECT_EQ(err({{"memory_file_path", std::string("a\0b", 3)}}),
            "localmemory: memory_file_path must not contain NUL bytes");
  EXPECT_EQ(err({{"memory_file_path", std::string(300, 'a')}}),
            "localmemory: memory_file_path \"" + std::string(300, 'a') +
                "\" has a component longer than 255 bytes");
  EXPECT_EQ(err({{"memory_file_path", 5}}), "localmemory: memory_file_path must be a string");
  EXPECT_EQ(err({{"max_file_bytes", 0}}),
            "localmemory: max_file_bytes must be an integer from 1 to 8388608");
  EXPECT_EQ(err({{"max_file_bytes", 1.5}}),
            "localmemory: max_file_bytes must be an integer from 1 to 8388608");
  EXPECT_EQ(err({{"max_file_bytes", (8ll << 20) + 1}}),
            "localmemory: max_file_bytes must be an integer from 1 to 8388608");
  EXPECT_EQ(
      err({{"memory_path", "x"}}),
      "localmemory: unknown setting \"memory_path\" (known: memory_file_path, max_file_bytes)");
  EXPECT_EQ(err(Json::array()), "localmemory: settings must be a JSON object");
}

}  // namespace
}  // namespace sbx::servers::localmemory::testing
