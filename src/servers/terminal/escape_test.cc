// Attacks on the command policy: commands and flags off the lists, shell
// syntax with operators off (none of it may reach a shell), paths that
// leave the allowed directory (.., absolute, the sibling "<root>2",
// symlinks out, a directory swapped for a link after resolution), over-long
// lines, and timeouts that must kill every process the command started.
#include <dirent.h>
#include <signal.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "confine/realpath_by_name.h"
#include "servers/terminal/test_support.h"

namespace sbx::servers::terminal::testing {
namespace {

using namespace std::chrono_literals;
using confine::RealpathByName;
using confine::ResolvedBeneath;

class EscapeTest : public TerminalTest {
 protected:
  bool InRoot(const std::string& rel) const {
    struct stat st {};
    return ::lstat((root_ + "/" + rel).c_str(), &st) == 0;
  }
};

TEST_F(EscapeTest, CommandsOffTheListNeverRun) {
  for (const char* line : {"sh -c id", "bash", "/bin/cat a.txt", "./run.sh", "env ls", "touch pwned", "python3",
                           "LS", "ls\xc2\xa0", "'ls '", "find . -delete"}) {
    std::string name = Call("run_command", {{"command", line}})["content"][0]["text"].get<std::string>();
    EXPECT_EQ(name.rfind("Security violation: Command '", 0), 0u) << line << ": " << name;
  }
  EXPECT_FALSE(InRoot("pwned"));
}

TEST_F(EscapeTest, FlagsOffTheListAreRefusedWhereverTheyStand) {
  EXPECT_EQ(Run("ls -R"), Violation("Flag '-R' is not allowed"));
  EXPECT_EQ(Run("cat a.txt --show-all"), Violation("Flag '--show-all' is not allowed"));
  EXPECT_EQ(Run("ls -l -"), Violation("Flag '-' is not allowed"));
  EXPECT_EQ(Run("ls '-R'"), Violation("Flag '-R' is not allowed"));  // quotes are removed first
  EXPECT_EQ(Run("ls -l\\a"), Violation("Flag '-la' is not allowed"));
}

// Operators off: every operator is refused, and the rest of the shell's
// syntax reaches the command as literal text because nothing runs a shell.
TEST_F(EscapeTest, ShellSyntaxWithOperatorsOffIsInert) {
  const std::string off = "' is not supported. Set ALLOW_SHELL_OPERATORS=true to enable.";
  EXPECT_EQ(Run("cat a.txt; touch pwned"), Violation("Shell operator ';" + off));
  EXPECT_EQ(Run("cat a.txt && touch pwned"), Violation("Shell operator '&&" + off));
  EXPECT_EQ(Run("cat a.txt | touch pwned"), Violation("Shell operator '|" + off));
  EXPECT_EQ(Run("cat a.txt > pwned"), Violation("Shell operator '>" + off));
  EXPECT_EQ(Run("cat < /etc/passwd"), Violation("Shell operator '<" + off));
  EXPECT_EQ(Run("cat $(id)"), Ok("", "cat: '$(id)': No such file or directory\n", 1));
  EXPECT_EQ(Run("cat `id`"), Ok("", "cat: '`id`': No such file or directory\n", 1));
  EXPECT_EQ(Run("ls\npwd"), Ok("", "ls: cannot access 'pwd': No such file or directory\n", 2));
  EXPECT_EQ(Run("ls & pwd"),
            Ok("", "ls: cannot access '&': No such file or directory\nls: cannot access 'pwd': No such file or directory\n",
               2));
  // With every command allowed the words are still only words.
  Configure(AllCommands());
  EXPECT_EQ(Run("echo $(touch pwned) `touch pwned` $HOME ~"), Ok("$(touch pwned) `touch pwned` $HOME ~\n", "", 0));
  EXPECT_EQ(Run("echo a\ntouch pwned"), Ok("a touch pwned\n", "", 0));
  EXPECT_EQ(Run("echo a & touch pwned"), Ok("a & touch pwned\n", "", 0));
  EXPECT_FALSE(InRoot("pwned"));
}

TEST_F(EscapeTest, PathsOutsideTheRootAreRefused) {
  auto outside = [&](const std::string& arg) {
    return Violation("Path '" + X(arg) + "' is outside of allowed directory: {R}");
  };
  Configure(AllCommands());
  for (const char* arg : {"..", "../", "../outside/secret.txt", "./../outside", "{B}/outside/secret.txt",
                          "{R}/../outside/secret.txt", "{R}2/file.txt", "{R}2", "./link_out/secret.txt",
                          "link_out/secret.txt", "./link_out", "./link_out_rel/secret.txt", "sub/up/../outside",
                          "/etc/passwd", "/", "//etc/passwd", "/proc/self/root/etc/passwd", "./nonexist/../../x"}) {
    EXPECT_EQ(Run("cat " + X(arg)), outside(arg)) << arg;
  }
}

TEST_F(EscapeTest, LinksAddedLaterAreResolvedAtCallTime) {
  Configure(AllCommands());
  ASSERT_EQ(::symlink((base_ + "/outside").c_str(), (root_ + "/late").c_str()), 0);
  EXPECT_EQ(Run("cat late/secret.txt"), Violation("Path 'late/secret.txt' is outside of allowed directory: {R}"));
  ASSERT_EQ(::symlink("sub", (root_ + "/late_in").c_str()), 0);
  EXPECT_EQ(Run("cat late_in/b.txt"), Ok("bee\n", "", 0));
}

// The kernel check behind _is_path_safe: a path resolved while a component
// was a directory is refused once that directory has become a link out.
TEST_F(EscapeTest, DirectorySwappedForALinkAfterResolutionIsRefused) {
  ASSERT_EQ(::mkdir((root_ + "/swap").c_str(), 0755), 0);
  WriteAbs(root_ + "/swap/secret.txt", "inside\n");
  auto real = RealpathByName(root_ + "/swap/secret.txt");
  ASSERT_TRUE(real);
  EXPECT_EQ(*real, root_ + "/swap/secret.txt");
  EXPECT_TRUE(ResolvedBeneath(*real, root_));
  ASSERT_EQ(::rename((root_ + "/swap").c_str(), (root_ + "/swapped").c_str()), 0);
  ASSERT_EQ(::symlink((base_ + "/outside").c_str(), (root_ + "/swap").c_str()), 0);
  EXPECT_FALSE(ResolvedBeneath(*real, root_));        // secret.txt exists beyond the link
  EXPECT_FALSE(ResolvedBeneath(root_ + "/swap", root_));  // the link itself, no loop
  EXPECT_TRUE(ResolvedBeneath(root_ + "/loop", root_));    // a loop leads nowhere
  EXPECT_FALSE(ResolvedBeneath(root_ + "2/file.txt", root_));
  EXPECT_TRUE(ResolvedBeneath(root_ + "/not/there", root_));
}

TEST_F(EscapeTest, OverLongCommandsNeverRun) {
  Options o = AllCommands();
  o.max_command_length = 20;
  Configure(o);
  EXPECT_EQ(Run("touch pwned_________x"), Violation("Command exceeds maximum length of 20"));
  EXPECT_FALSE(InRoot("pwned_________x"));
  EXPECT_EQ(Run(std::string(1 << 20, 'a')), Violation("Command exceeds maximum length of 20"));
}

// Whether a process running `argv0 arg` (by its command line) is alive.
bool Running(const std::string& cmdline) {
  DIR* proc = ::opendir("/proc");
  if (!proc) return false;
  bool found = false;
  while (dirent* e = ::readdir(proc)) {
    std::string pid = e->d_name;
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream f("/proc/" + pid + "/cmdline", std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    std::ifstream st("/proc/" + pid + "/stat");
    std::string stat((std::istreambuf_iterator<char>(st)), std::istreambuf_iterator<char>());
    auto close = stat.rfind(')');
    bool zombie = close != std::string::npos && close + 2 < stat.size() && stat[close + 2] == 'Z';
    if (text == cmdline && !zombie) found = true;
  }
  ::closedir(proc);
  return found;
}

bool GoneWithin(const std::string& cmdline, std::chrono::milliseconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (Running(cmdline)) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(20ms);
  }
  return true;
}

TEST_F(EscapeTest, TimeoutKillsTheWholeProcessGroup) {
  Options o = AllCommands();
  o.command_timeout = 1;
  Configure(o);
  auto start = std::chrono::steady_clock::now();
  // A background child and a foreground one, neither would end on its own.
  EXPECT_EQ(Run("sh -c 'sleep 37.25 &\nexec sleep 38.25'"), Fail("Error: Command timed out after 1 seconds"));
  auto took = std::chrono::steady_clock::now() - start;
  EXPECT_GE(took, 1s);
  EXPECT_LT(took, 5s);
  EXPECT_TRUE(GoneWithin(std::string("sleep\0" "37.25\0", 12), 3s));
  EXPECT_TRUE(GoneWithin(std::string("sleep\0" "38.25\0", 12), 3s));
  // Through the shell as well.
  o.allow_shell_operators = true;
  Configure(o);
  EXPECT_EQ(Run("sleep 39.25 & sleep 40.25 ; true"), Fail("Error: Command timed out after 1 seconds"));
  EXPECT_TRUE(GoneWithin(std::string("sleep\0" "39.25\0", 12), 3s));
  EXPECT_TRUE(GoneWithin(std::string("sleep\0" "40.25\0", 12), 3s));
}

// Upstream waits for whatever still holds the output pipes; here the
// command's end ends its group, so a background job neither holds the call
// open nor outlives it.
TEST_F(EscapeTest, BackgroundJobsEndWithTheCommand) {
  Configure(AllCommands());
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(Run("sh -c 'sleep 41.25 &\necho done'"), Ok("done\n", "", 0));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  EXPECT_TRUE(GoneWithin(std::string("sleep\0" "41.25\0", 12), 3s));
}

}  // namespace
}  // namespace sbx::servers::terminal::testing
