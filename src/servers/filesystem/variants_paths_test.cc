// 2025.7.1's path validation (PathPolicy::Rules, resolver.h) and its
// per-chunk head/tail (file_ops.h): each rule on its own at the PathPolicy
// level, then through the variant's tools with the texts the pinned
// upstream gives for the same tree (the differential suite checks them
// against the npm release too). Today's rules are the default's, asserted
// alongside so that a rule leaking into them shows.
#include <sys/stat.h>

#include <filesystem>
#include <string>

#include "servers/filesystem/node_errors.h"
#include "servers/filesystem/resolver.h"
#include "servers/filesystem/test_support.h"
#include "servers/filesystem/variants.h"

namespace sbx::servers::filesystem::testing {
namespace {

const std::string kNfc = "caf\u00e9.txt";
const std::string kNfd = "cafe\u0301.txt";

class PathRulesTest : public FsTest {
 protected:
  PathPolicy Policy(PathPolicy::Rules rules) const { return PathPolicy({root_}, rules); }
  static PathPolicy::Rules ParentOnly() {
    PathPolicy::Rules rules;
    rules.missing = PathPolicy::Missing::kParentOnly;
    return rules;
  }
  static std::string Message(const PathPolicy& policy, const std::string& path) {
    try {
      policy.Validate(path);
      return "(accepted)";
    } catch (const FsError& e) {
      return e.message();
    }
  }
  void Present2025() {
    server_ = MakeServer(Options{{root_}, kVariant2025_7_1});
    OpenSession(server_);
  }
  bool IsLink(const std::string& rel) const {
    struct stat st;
    return ::lstat(R(rel).c_str(), &st) == 0 && S_ISLNK(st.st_mode);
  }
};

TEST_F(PathRulesTest, WindowsDrivePathsRefusedOrRelative) {
  EXPECT_EQ(Message(PathPolicy({root_}), "C:\\x"),
            "Access denied - Windows-style path received on a POSIX host: C:\\x");
  PathPolicy::Rules rules;
  rules.refuse_windows_drive_paths = false;
  PathPolicy relative = Policy(rules);
  EXPECT_EQ(relative.Lexical("C:\\x"), R("C:\\x"));
  EXPECT_EQ(relative.Lexical("C:/x"), R("C:/x"));
  Target t = relative.Validate("C:\\x");
  EXPECT_EQ(t.path, R("C:\\x"));
  EXPECT_FALSE(t.exists);
}

TEST_F(PathRulesTest, UnicodeWalkOrExactNames) {
  Write(kNfc, "nfc\n");
  Target today = PathPolicy({root_}).Validate(R(kNfd));
  EXPECT_TRUE(today.exists);
  EXPECT_EQ(today.path, R(kNfc));
  Target exact = Policy(ParentOnly()).Validate(R(kNfd));
  EXPECT_FALSE(exact.exists);
  EXPECT_EQ(exact.path, R(kNfd));
  ASSERT_EQ(exact.rest.size(), 1u);
  EXPECT_EQ(exact.rest[0], kNfd);
}

TEST_F(PathRulesTest, MissingPathBelowParentAsTyped) {
  Mkdir("real");
  Symlink("real", "via");
  EXPECT_EQ(PathPolicy({root_}).Validate(R("via/new.txt")).path, R("real/new.txt"));
  PathPolicy policy = Policy(ParentOnly());
  EXPECT_EQ(policy.Validate(R("via/new.txt")).path, R("via/new.txt"));
  // Today's takes any depth of missing names; 2025.7.1 named the parent.
  EXPECT_EQ(PathPolicy({root_}).Validate(R("no/such/x")).path, R("no/such/x"));
  EXPECT_EQ(Message(policy, R("no/such/x")), "Parent directory does not exist: " + R("no/such"));
  // A parent whose link leads out fails the same way (2025.7.1 caught it).
  Symlink(O(), "out");
  EXPECT_EQ(Message(policy, R("out/new.txt")), "Parent directory does not exist: " + R("out"));
  EXPECT_EQ(Message(PathPolicy({root_}), R("out/new.txt")),
            "Access denied - symlink target outside allowed directories: " + O() + " not in " + root_);
}

TEST_F(PathRulesTest, ADanglingLinkIsAMissingName) {
  Symlink(O("missing-target"), "dangling");
  EXPECT_EQ(Message(PathPolicy({root_}), R("dangling")), "Parent directory does not exist: " + root_);
  PathPolicy policy = Policy(ParentOnly());
  Target read = policy.Validate(R("dangling"));
  EXPECT_FALSE(read.exists);
  EXPECT_EQ(read.path, R("dangling"));
  EXPECT_EQ(Message(policy, R("fresh")), "(accepted)");
}

TEST_F(PathRulesTest, Upstream2025ExactNamesThroughTools) {
  Present2025();
  Write(kNfc, "nfc\n");
  EXPECT_EQ(Err("read_file", {{"path", R(kNfd)}}),
            "Error: ENOENT: no such file or directory, open '" + R(kNfd) + "'");
  EXPECT_EQ(Ok("write_file", {{"path", R(kNfd)}, {"content", "nfd\n"}}), "Successfully wrote to " + R(kNfd));
  EXPECT_EQ(ReadAbs(R(kNfc)), "nfc\n");  // a second file beside the first
  EXPECT_EQ(ReadAbs(R(kNfd)), "nfd\n");
  EXPECT_EQ(Err("create_directory", {{"path", R("cafe\u0301/sub")}}),
            "Error: Parent directory does not exist: " + R("cafe\u0301"));
}

TEST_F(PathRulesTest, Upstream2025WindowsDrivePathIsAFileName) {
  Present2025();
  EXPECT_EQ(Ok("write_file", {{"path", "C:\\x"}, {"content", "w"}}), "Successfully wrote to C:\\x");
  EXPECT_EQ(ReadAbs(R("C:\\x")), "w");
  EXPECT_EQ(Ok("read_file", {{"path", "C:\\x"}}), "w");
  EXPECT_EQ(Err("read_file", {{"path", "C:/x"}}), "Error: Parent directory does not exist: " + R("C:"));
}

TEST_F(PathRulesTest, Upstream2025MissingPathPrintedAsTyped) {
  Present2025();
  Mkdir("real");
  Symlink("real", "via");
  EXPECT_EQ(Err("read_file", {{"path", R("via/missing.txt")}}),
            "Error: ENOENT: no such file or directory, open '" + R("via/missing.txt") + "'");
  EXPECT_EQ(Ok("read_multiple_files", {{"paths", {R("via/missing.txt"), R("no/x")}}}),
            R("via/missing.txt") + ": Error - ENOENT: no such file or directory, open '" + R("via/missing.txt") +
                "'\n---\n" + R("no/x") + ": Error - Parent directory does not exist: " + R("no"));
}

TEST_F(PathRulesTest, Upstream2025DanglingLinkIsAMissingName) {
  Present2025();
  Symlink(O("missing-target"), "dangling");
  const std::string enoent = "Error: ENOENT: no such file or directory, ";
  const std::string quoted = "'" + R("dangling") + "'";
  EXPECT_EQ(Err("read_file", {{"path", R("dangling")}}), enoent + "open " + quoted);
  EXPECT_EQ(Err("read_file", {{"path", R("dangling")}, {"head", 1}}), enoent + "open " + quoted);
  EXPECT_EQ(Err("read_file", {{"path", R("dangling")}, {"tail", 1}}), enoent + "stat " + quoted);
  EXPECT_EQ(Err("get_file_info", {{"path", R("dangling")}}), enoent + "stat " + quoted);
  EXPECT_EQ(Err("list_directory", {{"path", R("dangling")}}), enoent + "scandir " + quoted);
  EXPECT_EQ(Err("edit_file", {{"path", R("dangling")}, {"edits", Json::array()}}), enoent + "open " + quoted);
  // mkdir does not follow a final link either: nothing is made.
  EXPECT_EQ(Err("create_directory", {{"path", R("dangling")}}),
            "Error: EEXIST: file already exists, mkdir " + quoted);
  // 2025.7.1 replaced the link by a file (a temporary renamed over the
  // name) and moved the link itself: the link's outside target is never
  // created or written.
  EXPECT_EQ(Ok("write_file", {{"path", R("dangling")}, {"content", "x"}}), "Successfully wrote to " + R("dangling"));
  EXPECT_FALSE(IsLink("dangling"));
  EXPECT_EQ(ReadAbs(R("dangling")), "x");
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::symlink_status(O("missing-target"))));
  Symlink(O("missing-target"), "dangling2");
  Write("a.txt", "a");
  EXPECT_EQ(Ok("move_file", {{"source", R("a.txt")}, {"destination", R("dangling2")}}),
            "Successfully moved " + R("a.txt") + " to " + R("dangling2"));
  EXPECT_FALSE(IsLink("dangling2"));
  EXPECT_EQ(ReadAbs(R("dangling2")), "a");
  Symlink(O("missing-target"), "dangling3");
  EXPECT_EQ(Ok("move_file", {{"source", R("dangling3")}, {"destination", R("b")}}),
            "Successfully moved " + R("dangling3") + " to " + R("b"));
  EXPECT_TRUE(IsLink("b"));
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::symlink_status(O("missing-target"))));
}

// "é" and a CRLF straddling the 1 KiB chunk boundary from either end.
TEST_F(PathRulesTest, Upstream2025HeadTailDecodePerChunk) {
  const std::string a(1023, 'a'), b(1021, 'b'), x(1023, 'x'), y(1022, 'y');
  Write("u.txt", a + "\u00e9\n" + b + "\n");
  Write("c.txt", x + "\r\n" + y + "\n");
  // Today's: decoded whole, CRLF normalized, slice(-n).
  EXPECT_EQ(Ok("read_text_file", {{"path", R("u.txt")}, {"head", 1}}), a + "\u00e9");
  EXPECT_EQ(Ok("read_text_file", {{"path", R("u.txt")}, {"tail", 3}}), a + "\u00e9\n" + b + "\n");
  EXPECT_EQ(Ok("read_text_file", {{"path", R("u.txt")}, {"tail", 1.5}}), "");
  EXPECT_EQ(Ok("read_text_file", {{"path", R("c.txt")}, {"tail", 3}}), x + "\n" + y + "\n");
  Present2025();
  const std::string bad = "\ufffd\ufffd";  // the lead byte's chunk, then the continuation's
  EXPECT_EQ(Ok("read_file", {{"path", R("u.txt")}, {"head", 1}}), a + bad);
  EXPECT_EQ(Ok("read_file", {{"path", R("u.txt")}, {"tail", 3}}), a + bad + "\n" + b + "\n");
  EXPECT_EQ(Ok("read_file", {{"path", R("u.txt")}, {"tail", 1.5}}), b + "\n");
  EXPECT_EQ(Ok("read_file", {{"path", R("u.txt")}, {"tail", -1}}), "");
  EXPECT_EQ(Ok("read_file", {{"path", R("c.txt")}, {"tail", 3}}), x + "\r\n" + y + "\n");
  EXPECT_EQ(Ok("read_file", {{"path", R("c.txt")}, {"head", 2}}), x + "\r\n" + y);
  // A file with no line break is one line, carried across every chunk.
  Write("long.txt", std::string(5000, 'z'));
  EXPECT_EQ(Ok("read_file", {{"path", R("long.txt")}, {"tail", 1}}), std::string(5000, 'z'));
}

}  // namespace
}  // namespace sbx::servers::filesystem::testing
