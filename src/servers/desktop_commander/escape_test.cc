// Attempts to leave the workspace through every path-taking tool (absolute
// paths, "..", a sibling sharing the root's prefix, "~", case variants,
// NUL bytes, symbolic links out (direct, chained, in a parent, swapped in
// mid-call), allowedDirectories set around the workspace), and blocked
// commands in their chained and piped forms. The fixture checks after every
// test that nothing outside the workspace changed.
#include <sys/stat.h>

#include <atomic>
#include <thread>

#include "servers/desktop_commander/test_support.h"

namespace sbx::servers::desktop_commander::testing {
namespace {

class EscapeTest : public DcTest {
 protected:
  // Every tool that takes a path, aimed at `p`; each must be refused with
  // upstream's "Path not allowed" message naming `p` (search tools answer
  // "no matches", as upstream turns their failures into that).
  void ExpectRefusedEverywhere(const std::string& p) {
    const std::string msg = NotAllowed(p);
    EXPECT_EQ(Err("read_file", {{"path", p}}), msg);
    EXPECT_EQ(Err("write_file", {{"path", p}, {"content", "pwned"}}), msg);
    EXPECT_EQ(Err("create_directory", {{"path", p}}), msg);
    EXPECT_EQ(Err("list_directory", {{"path", p}}), msg);
    EXPECT_EQ(Err("get_file_info", {{"path", p}}), msg);
    EXPECT_EQ(Err("edit_block", {{"file_path", p}, {"old_string", "SECRET"}, {"new_string", "x"}}), msg);
    EXPECT_EQ(Err("move_file", {{"source", p}, {"destination", R("stolen")}}), msg);
    EXPECT_EQ(Err("move_file", {{"source", R("mine.txt")}, {"destination", p}}), msg);
    Json many = Call("read_multiple_files", {{"paths", {p}}});
    EXPECT_EQ(many["content"][0]["text"], p + ": Error - " + msg.substr(7));
    const std::string none = "No matches found or search timed out after 30000ms.";
    EXPECT_EQ(Ok("search_files", {{"path", p}, {"pattern", "e"}}), none);
    EXPECT_EQ(Ok("search_code", {{"path", p}, {"pattern", "SECRET"}}), none);
    EXPECT_FALSE(Exists(R("stolen")));
  }
};

TEST_F(EscapeTest, PathsOutsideAreRefused) {
  Write("mine.txt", "mine\n");
  ExpectRefusedEverywhere(O("secret.txt"));
  ExpectRefusedEverywhere(R("../outside/secret.txt"));
  ExpectRefusedEverywhere(root_ + "2/file.txt");       // sibling sharing the root's prefix
  ExpectRefusedEverywhere(root_ + "base/file.txt");
  ExpectRefusedEverywhere("/etc/passwd");
  ExpectRefusedEverywhere("../outside/secret.txt");    // relative to the workspace
  ExpectRefusedEverywhere("~/x");                      // the home is outside too
  EXPECT_EQ(Read("mine.txt"), "mine\n");
}

TEST_F(EscapeTest, CaseVariantsAreNotTheWorkspace) {
  // upstream lower-cases both sides of its comparison, so on Linux it let
  // these through (and would create directories outside); here they are
  // other paths.
  std::string upper = root_;
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  EXPECT_EQ(Err("create_directory", {{"path", upper + "/x"}}), NotAllowed(upper + "/x"));
  EXPECT_FALSE(Exists(upper));
}

TEST_F(EscapeTest, NulBytesAreRefused) {
  std::string p = R("a") + std::string(1, '\0') + "b";
  EXPECT_EQ(Err("read_file", {{"path", p}}),
            "Error: The argument 'path' must be a string, Uint8Array, or URL without null bytes. Received '" + R("a") +
                "\\x00b'");
}

TEST_F(EscapeTest, SymlinksOutAreRefused) {
  Write("mine.txt", "mine\n");
  Symlink(O("secret.txt"), "to_secret");
  Symlink(O(), "to_outside");
  Symlink("to_secret", "chain");             // link to a link out
  Symlink("../outside/secret.txt", "relative_out");
  ExpectRefusedEverywhere(R("to_secret"));
  ExpectRefusedEverywhere(R("chain"));
  ExpectRefusedEverywhere(R("relative_out"));
  ExpectRefusedEverywhere(R("to_outside/secret.txt"));  // a link in a parent
  EXPECT_EQ(Err("create_directory", {{"path", R("to_outside/newdir")}}), NotAllowed(R("to_outside/newdir")));
  // Below a link to a file outside, the walk fails as upstream's mkdir does,
  // without touching anything there.
  EXPECT_EQ(Err("create_directory", {{"path", R("to_secret/d")}}),
            "Error: ENOTDIR: not a directory, mkdir '" + R("to_secret/d") + "'");
  EXPECT_EQ(Err("write_file", {{"path", R("to_outside/new.txt")}, {"content", "x"}}), NotAllowed(R("to_outside/new.txt")));
  // search_files skips entries that resolve outside; links inside are fine.
  Symlink("mine.txt", "to_mine");
  EXPECT_EQ(Ok("search_files", {{"path", R()}, {"pattern", "to_"}}), R("to_mine"));
  EXPECT_EQ(Ok("read_file", {{"path", R("to_mine")}}),
            "[Reading 1 lines from start (total: 2 lines, 1 remaining)]\n\nmine");
  // Writing through a link inside writes the real file, as upstream does.
  EXPECT_EQ(Ok("write_file", {{"path", R("to_mine")}, {"content", "new"}}), "Successfully wrote to " + R("to_mine") + " (1 lines) ");
  EXPECT_EQ(Read("mine.txt"), "new");
}

TEST_F(EscapeTest, LinksSwappedInMidCallNeverWriteOutside) {
  // A process flips a directory inside the workspace with a link out while
  // writes aimed below it race; every write lands inside or fails.
  Mkdir("flip");
  std::atomic<bool> stop{false};
  std::thread flipper([&] {
    std::string dir = R("flip"), aside = R("flip_aside");
    while (!stop) {
      ::rename(dir.c_str(), aside.c_str());
      ::symlink(O().c_str(), dir.c_str());
      ::unlink(dir.c_str());
      ::rename(aside.c_str(), dir.c_str());
    }
  });
  for (int i = 0; i < 300; ++i) {
    Call("write_file", {{"path", R("flip/new.txt")}, {"content", "x"}});
    Call("create_directory", {{"path", R("flip/sub/dir")}});
    Call("edit_block", {{"file_path", R("flip/new.txt")}, {"old_string", "x"}, {"new_string", "y"}});
  }
  stop = true;
  flipper.join();
  EXPECT_FALSE(Exists(O("new.txt")));
  EXPECT_FALSE(Exists(O("sub")));
}

TEST_F(EscapeTest, AllowedDirectoriesNeverWidenPastTheWorkspace) {
  Write("mine.txt", "mine\n");
  Write("sub/inner.txt", "inner\n");
  // [] and ["/"] are "everything" upstream; here, the workspace.
  for (Json value : {Json::array(), Json::array({"/"})}) {
    Ok("set_config_value", {{"key", "allowedDirectories"}, {"value", value}});
    EXPECT_EQ(Err("read_file", {{"path", O("secret.txt")}}), NotAllowed(O("secret.txt")));
    EXPECT_EQ(Ok("read_file", {{"path", R("mine.txt")}}).substr(0, 9), "[Reading ");
  }
  // A configured directory outside the workspace allows nothing there.
  Ok("set_config_value", {{"key", "allowedDirectories"}, {"value", Json::array({outside_})}});
  EXPECT_EQ(Err("read_file", {{"path", O("secret.txt")}}),
            "Error: Path not allowed: " + O("secret.txt") + ". Must be within one of these directories: " + outside_);
  // A narrower one inside: only there, also against links leaving it.
  Ok("set_config_value", {{"key", "allowedDirectories"}, {"value", Json::array({R("sub")})}});
  Symlink(R("mine.txt"), "sub/to_mine");
  const std::string only_sub = ". Must be within one of these directories: " + R("sub");
  EXPECT_EQ(Err("read_file", {{"path", R("mine.txt")}}), "Error: Path not allowed: " + R("mine.txt") + only_sub);
  EXPECT_EQ(Err("read_file", {{"path", R("sub/to_mine")}}), "Error: Path not allowed: " + R("sub/to_mine") + only_sub);
  EXPECT_EQ(Ok("read_file", {{"path", R("sub/inner.txt")}}),
            "[Reading 1 lines from start (total: 2 lines, 1 remaining)]\n\ninner");
  // Entries that are not strings fail as upstream's expandHome does.
  Ok("set_config_value", {{"key", "allowedDirectories"}, {"value", Json::array({5})}});
  EXPECT_EQ(Err("read_file", {{"path", R("mine.txt")}}), "Error: filepath.startsWith is not a function");
}

TEST_F(EscapeTest, BlockedCommandsInEveryForm) {
  for (const std::string cmd :
       {"sudo id", "SUDO id", "echo hi | sudo tee x", "true && dd if=/dev/zero of=x", "false || mkfs x",
        "ls; mount /x", "sleep 0 & su", "echo $(sudo id)", "(umount /)", "X=1 Y=2 sudo id", "echo 'quoted' | passwd"})
    EXPECT_EQ(Err("start_process", {{"command", cmd}, {"timeout_ms", 1000}}), "Error: Command not allowed: " + cmd) << cmd;
  // Quoted separators do not split; the configured list is what counts.
  EXPECT_EQ(Ok("start_process", {{"command", "echo 'sudo; dd'"}, {"timeout_ms", 2000}}).substr(0, 24),
            "Process started with PID");
  Ok("set_config_value", {{"key", "blockedCommands"}, {"value", "[\"echo\"]"}});
  EXPECT_EQ(Err("start_process", {{"command", "true; echo x"}, {"timeout_ms", 1000}}),
            "Error: Command not allowed: true; echo x");
}

}  // namespace
}  // namespace sbx::servers::desktop_commander::testing
