// Attempts to reach outside the allowed root. Each must fail with upstream's
// message (or, where upstream itself escapes, with an access-denied one),
// and the fixture's TearDown asserts that nothing outside the root changed.
#include <unistd.h>

#include <cstdlib>

#include "servers/filesystem/test_support.h"

namespace sbx::servers::filesystem::testing {
namespace {

class EscapeTest : public FsTest {
 protected:
  std::string Outside(const std::string& path) const {
    return "Access denied - path outside allowed directories: " + path + " not in " + root_;
  }
  std::string LinkOutside(const std::string& real) const {
    return "Access denied - symlink target outside allowed directories: " + real + " not in " +
           root_;
  }
};

TEST_F(EscapeTest, DotDotAndAbsolutePaths) {
  EXPECT_EQ(Err("read_text_file", {{"path", "../outside/secret.txt"}}), Outside(O("secret.txt")));
  EXPECT_EQ(Err("read_text_file", {{"path", R("../outside/secret.txt")}}),
            Outside(O("secret.txt")));
  EXPECT_EQ(Err("read_text_file", {{"path", R("sub/../../outside/secret.txt")}}),
            Outside(O("secret.txt")));
  EXPECT_EQ(Err("read_text_file", {{"path", "/etc/passwd"}}), Outside("/etc/passwd"));
  EXPECT_EQ(Err("list_directory", {{"path", R("..")}}), Outside(base_));
  EXPECT_EQ(Err("list_directory", {{"path", "/"}}), Outside("/"));
  EXPECT_EQ(Err("write_file", {{"path", O("new.txt")}, {"content", "x"}}), Outside(O("new.txt")));
  EXPECT_EQ(Err("create_directory", {{"path", "../outside/newdir"}}), Outside(O("newdir")));
  std::string home = std::getenv("HOME") ? std::getenv("HOME") : "/root";
  EXPECT_EQ(Err("read_text_file", {{"path", "~/x"}}), Outside(home + "/x"));
}

TEST_F(EscapeTest, SiblingsWhoseNameStartsWithTheRoot) {
  EXPECT_EQ(Err("read_text_file", {{"path", root_ + "2/file.txt"}}), Outside(root_ + "2/file.txt"));
  EXPECT_EQ(Err("read_text_file", {{"path", root_ + "base/file.txt"}}),
            Outside(root_ + "base/file.txt"));
  EXPECT_EQ(Err("write_file", {{"path", root_ + "base/new.txt"}, {"content", "x"}}),
            Outside(root_ + "base/new.txt"));
  EXPECT_EQ(Err("move_file", {{"source", root_ + "2/file.txt"}, {"destination", R("f.txt")}}),
            Outside(root_ + "2/file.txt"));
  // Upstream strips quotes and white space before its check and would write
  // these siblings; here they are refused.
  EXPECT_EQ(Err("write_file", {{"path", root_ + "'"}, {"content", "x"}}), Outside(root_ + "'"));
  EXPECT_EQ(Err("write_file", {{"path", root_ + " "}, {"content", "x"}}), Outside(root_ + " "));
  EXPECT_EQ(Err("create_directory", {{"path", root_ + "\""}}), Outside(root_ + "\""));
  EXPECT_FALSE(Exists(root_ + "'"));
  EXPECT_FALSE(Exists(root_ + " "));
}

TEST_F(EscapeTest, SymlinksToOutsideFilesAndDirectories) {
  Symlink(O("secret.txt"), "abs");
  Symlink("../outside/secret.txt", "rel");
  Symlink(O("dir"), "dirlink");
  Symlink("/", "slash");
  Symlink("..", "up");
  for (const char* link : {"abs", "rel"}) {
    EXPECT_EQ(Err("read_text_file", {{"path", R(link)}}), LinkOutside(O("secret.txt"))) << link;
    EXPECT_EQ(Err("read_media_file", {{"path", R(link)}}), LinkOutside(O("secret.txt")));
    EXPECT_EQ(Err("get_file_info", {{"path", R(link)}}), LinkOutside(O("secret.txt")));
    EXPECT_EQ(Err("write_file", {{"path", R(link)}, {"content", "PWNED"}}),
              LinkOutside(O("secret.txt")));
    EXPECT_EQ(Err("edit_file",
                  {{"path", R(link)}, {"edits", {{{"oldText", "SECRET"}, {"newText", "PWNED"}}}}}),
              LinkOutside(O("secret.txt")));
    EXPECT_EQ(Err("read_text_file", {{"path", R(link)}, {"tail", 1}}),
              LinkOutside(O("secret.txt")));
  }
  EXPECT_EQ(Err("read_text_file", {{"path", R("dirlink/inner.txt")}}),
            LinkOutside(O("dir/inner.txt")));
  EXPECT_EQ(Err("list_directory", {{"path", R("dirlink")}}), LinkOutside(O("dir")));
  EXPECT_EQ(Err("directory_tree", {{"path", R("dirlink")}}), LinkOutside(O("dir")));
  EXPECT_EQ(Err("search_files", {{"path", R("dirlink")}, {"pattern", "*"}}), LinkOutside(O("dir")));
  EXPECT_EQ(Err("write_file", {{"path", R("dirlink/new.txt")}, {"content", "x"}}),
            LinkOutside(O("dir")));
  EXPECT_EQ(Err("create_directory", {{"path", R("dirlink/newdir/deeper")}}), LinkOutside(O("dir")));
  EXPECT_EQ(Err("list_directory", {{"path", R("slash")}}), LinkOutside("/"));
  EXPECT_EQ(Err("read_text_file", {{"path", R("slash/etc/passwd")}}), LinkOutside("/etc/passwd"));
  EXPECT_EQ(Err("list_directory", {{"path", R("up")}}), LinkOutside(base_));
  EXPECT_EQ(Err("read_text_file", {{"path", R("up/outside/secret.txt")}}),
            LinkOutside(O("secret.txt")));
}

TEST_F(EscapeTest, LinksThatStayInsideAreFollowed) {
  Write("d/f.txt", "inside\n");
  Symlink("d/f.txt", "in");
  Symlink("in", "chain1");
  Symlink("chain1", "chain2");
  Symlink("../root/d/f.txt", "roundtrip");  // leaves the root by name, comes back
  Symlink("d", "dirlink");
  EXPECT_EQ(Ok("read_text_file", {{"path", R("chain2")}}), "inside\n");
  EXPECT_EQ(Ok("read_text_file", {{"path", R("roundtrip")}}), "inside\n");
  EXPECT_EQ(Ok("create_directory", {{"path", R("dirlink/made")}}),
            "Successfully created directory " + R("dirlink/made"));
  EXPECT_TRUE(Exists(R("d/made")));
  // Messages name the real path, as upstream's do.
  EXPECT_EQ(Err("move_file", {{"source", R("d/made")}, {"destination", R("chain2")}}),
            "Destination already exists: " + R("d/f.txt"));
}

TEST_F(EscapeTest, ChainsAndLoops) {
  Symlink("c2", "c1");
  Symlink("c3", "c2");
  Symlink(O("secret.txt"), "c3");
  Symlink("loop", "loop");
  Symlink("pong", "ping");
  Symlink("ping", "pong");
  EXPECT_EQ(Err("read_text_file", {{"path", R("c1")}}), LinkOutside(O("secret.txt")));
  EXPECT_EQ(Err("read_text_file", {{"path", R("loop")}}),
            "ELOOP: too many symbolic links encountered, realpath '" + R("loop") + "'");
  EXPECT_EQ(Err("read_text_file", {{"path", R("ping/x")}}),
            "ELOOP: too many symbolic links encountered, realpath '" + R("ping/x") + "'");
  EXPECT_EQ(Err("write_file", {{"path", R("loop")}, {"content", "x"}}),
            "ELOOP: too many symbolic links encountered, realpath '" + R("loop") + "'");
}

TEST_F(EscapeTest, DanglingLinksPointingOutside) {
  Symlink(O("created-by-attack.txt"), "dangling");
  Symlink(O("newdir"), "danglingdir");
  EXPECT_EQ(Err("write_file", {{"path", R("dangling")}, {"content", "PWNED"}}),
            "Parent directory does not exist: " + root_);
  EXPECT_EQ(Err("create_directory", {{"path", R("danglingdir")}}),
            "Parent directory does not exist: " + root_);
  EXPECT_EQ(Err("write_file", {{"path", R("danglingdir/x")}, {"content", "x"}}),
            "Parent directory does not exist: " + R("danglingdir"));
  EXPECT_EQ(Err("move_file", {{"source", R("dangling")}, {"destination", R("x")}}),
            "Parent directory does not exist: " + root_);
  EXPECT_FALSE(Exists(O("created-by-attack.txt")));
  EXPECT_FALSE(Exists(O("newdir")));
}

TEST_F(EscapeTest, MoveFileAcrossTheBoundary) {
  Write("mine.txt", "mine");
  Symlink(O("dir"), "dirlink");
  EXPECT_EQ(Err("move_file", {{"source", R("mine.txt")}, {"destination", O("stolen.txt")}}),
            Outside(O("stolen.txt")));
  EXPECT_EQ(Err("move_file", {{"source", O("secret.txt")}, {"destination", R("got.txt")}}),
            Outside(O("secret.txt")));
  EXPECT_EQ(Err("move_file", {{"source", R("mine.txt")}, {"destination", R("dirlink/stolen.txt")}}),
            LinkOutside(O("dir")));
  EXPECT_EQ(Err("move_file", {{"source", R("dirlink/inner.txt")}, {"destination", R("got.txt")}}),
            LinkOutside(O("dir/inner.txt")));
  EXPECT_EQ(ReadAbs(R("mine.txt")), "mine");
  EXPECT_FALSE(Exists(R("got.txt")));
}

TEST_F(EscapeTest, NulBytesLongPathsAndOddInput) {
  std::string nul = R("a") + std::string(1, '\0') + "b";
  EXPECT_EQ(Err("read_text_file", {{"path", nul}}),
            Outside(nul));  // the NUL survives into the message
  EXPECT_EQ(Err("write_file", {{"path", nul}, {"content", "x"}}), Outside(nul));
  std::string component(300, 'x');
  EXPECT_EQ(Err("read_text_file", {{"path", R(component)}}),
            "ENAMETOOLONG: name too long, realpath '" + R(component) + "'");
  std::string deep;
  for (int i = 0; i < 420; ++i) deep += "/abcdefghij";
  EXPECT_EQ(Err("write_file", {{"path", root_ + deep}, {"content", "x"}}),
            "ENAMETOOLONG: name too long, open '" + root_ + deep + "'");
  EXPECT_EQ(Err("create_directory", {{"path", root_ + deep}}),
            "ENAMETOOLONG: name too long, mkdir '" + root_ + deep + "'");
  EXPECT_EQ(Err("read_text_file", {{"path", "C:/Windows/win.ini"}}),
            "Access denied - Windows-style path received on a POSIX host: C:/Windows/win.ini");
}

TEST_F(EscapeTest, HardLinkToAnOutsideFileIsNeverWrittenThrough) {
  // Inside the jail /data is its own mount, so such a link cannot be made
  // (link(2) gives EXDEV); here the temporary tree shares one file system.
  ASSERT_EQ(::link(O("secret.txt").c_str(), R("hard").c_str()), 0);
  // Reading shows the shared content, as upstream does: by path it is inside.
  EXPECT_EQ(Ok("read_text_file", {{"path", R("hard")}}), "SECRET\n");
  // Writes replace the link with a new file; the other name keeps its content.
  EXPECT_EQ(Ok("write_file", {{"path", R("hard")}, {"content", "new"}}),
            "Successfully wrote to " + R("hard"));
  EXPECT_EQ(ReadAbs(R("hard")), "new");
  ASSERT_EQ(::unlink(R("hard").c_str()), 0);
  ASSERT_EQ(::link(O("secret.txt").c_str(), R("hard2").c_str()), 0);
  Ok("edit_file",
     {{"path", R("hard2")}, {"edits", {{{"oldText", "SECRET"}, {"newText", "EDITED"}}}}});
  EXPECT_EQ(ReadAbs(R("hard2")), "EDITED\n");
  EXPECT_EQ(ReadAbs(O("secret.txt")), "SECRET\n");
}

TEST_F(EscapeTest, WalksNeverEnterLinks) {
  Symlink(O("dir"), "dirlink");
  Symlink(O("secret.txt"), "filelink");
  Write("real/inner.txt", "x");
  EXPECT_EQ(Ok("search_files", {{"path", R()}, {"pattern", "**/inner.txt"}}), R("real/inner.txt"));
  EXPECT_EQ(Ok("search_files", {{"path", R()}, {"pattern", "*link"}}),
            "No matches found");  // links outside are skipped
  std::string tree = Ok("directory_tree", {{"path", R()}});
  EXPECT_NE(tree.find("\"name\": \"dirlink\",\n    \"type\": \"file\"\n"), std::string::npos)
      << tree;
  EXPECT_EQ(tree.find("OUTSIDE"), std::string::npos);
  EXPECT_EQ(tree.find("inner.txt"), tree.rfind("inner.txt"));  // only real/inner.txt
  // Sizes through links that leave the root are not reported.
  std::string sizes = Ok("list_directory_with_sizes", {{"path", R()}});
  EXPECT_NE(sizes.find("[FILE] filelink                              0 B"), std::string::npos)
      << sizes;
}

}  // namespace
}  // namespace sbx::servers::filesystem::testing
