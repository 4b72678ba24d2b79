// The pinned releases (variants.h): tools/list against
// shared/reference/tools/variants/git@<variant>.json, and golden cases for
// each difference from today's server. Python cannot run here, so each
// expectation is derived from the upstream code named in its comment
// (modelcontextprotocol/servers src/git/src/mcp_server_git/server.py at the
// tag given; Klavis-AI/klavis mcp_servers/local/git/src/mcp_server_git/
// server.py at 669e95d, which is tag 2025.11.25's code; GitPython 3.1.43,
// which those tags' uv.lock pins) and git 2.39's own messages.
#include <sys/stat.h>
#include <unistd.h>

#include "servers/git/test_support.h"
#include "servers/test_support/tool_list.h"

namespace sbx::servers::git::testing {
namespace {

class VariantTest : public GitTest {
 protected:
  void Use(const std::string& variant) {
    options_.variant = variant;
    Restart();
  }

  // <root>/repo: README.md and a 10-line notes.txt committed by Ann Author
  // at 1700000000 +0100 ("Initial commit"), then a second commit whose
  // message has quotes; notes.txt's line 5 changed in the work tree,
  // .gitignore ignoring *.log, debug.log present.
  std::string Scenario() {
    std::string dir = MakeRepo();
    std::string notes;
    for (int i = 1; i <= 10; ++i) notes += "n" + std::to_string(i) + "\n";
    Write("repo/notes.txt", notes);
    Write("repo/.gitignore", "*.log\n");
    Git(dir, {"add", "notes.txt", ".gitignore"});
    Git(dir, {"commit", "-q", "-m", "Add 'notes'"}, "", "1700003600 -0500");
    Write("repo/notes.txt", "n1\nn2\nn3\nn4\nFIVE\nn6\nn7\nn8\nn9\nn10\n");
    Write("repo/debug.log", "log\n");
    Write("file.txt", "x");
    return dir;
  }

  void ExpectListEquals(const std::string& variant, std::size_t count) {
    auto ref = test_support::ReadJsonFile(GIT_VARIANTS_DIR "/git@" + variant + ".json");
    if (!ref) GTEST_SKIP() << "reference not found for " << variant;
    Json tools = ListTools();
    ASSERT_EQ(tools.size(), count);
    // Exact JSON, key order included; SDK 1.1.0 had no titles or annotations.
    ASSERT_NO_FATAL_FAILURE(test_support::ExpectToolsMatch(
        tools, (*ref)["tools"],
        {.exact = {"inputSchema"}, .absent = {"outputSchema", "annotations", "title"}}));
    EXPECT_EQ(init_reply_["result"]["serverInfo"]["name"], "mcp-git");
    // uv.lock of the tags (and Klavis's, installed with --locked): mcp 1.1.0.
    EXPECT_EQ(init_reply_["result"]["serverInfo"]["version"], "1.1.0");
  }

  std::string Staged(const std::string& dir) {
    return Git(dir, {"diff", "--cached", "--name-only"});
  }
};

TEST_F(VariantTest, ToolListsEqualTheReferences) {
  Use("2025.1.14");
  ExpectListEquals("2025.1.14", 11);
  Use("2025.7.1");
  ExpectListEquals("2025.7.1", 13);
  Use("klavis");
  ExpectListEquals("klavis", 12);
}

// Tag 2025.1.14, server.py git_log / git_show: the header fields are
// formatted with str(): the bare hexsha, str(Actor) (the name only),
// str(datetime) in both tools, the message as stored (its newline kept).
TEST_F(VariantTest, PlainHeadersIn2025_1_14) {
  std::string dir = Scenario();
  Use("2025.1.14");
  const std::string second = Head(dir), first = Head(dir, "HEAD~1");
  EXPECT_EQ(
      Ok("git_log", {{"repo_path", dir}}),
      "Commit history:\nCommit: " + second +
          "\nAuthor: Ann Author\nDate: 2023-11-14 18:13:20-05:00\nMessage: Add 'notes'\n\n\n"
          "Commit: " +
          first +
          "\nAuthor: Ann Author\nDate: 2023-11-14 23:13:20+01:00\nMessage: Initial commit\n\n");
  std::string show = Ok("git_show", {{"repo_path", dir}, {"revision", "HEAD"}});
  const std::string header = "Commit: " + second +
                             "\nAuthor: Ann Author\nDate: 2023-11-14 18:13:20-05:00\n"
                             "Message: Add 'notes'\n\n";
  ASSERT_EQ(show.substr(0, header.size()), header);
  // The patch part is the same code in every release.
  Use("");
  std::string today = Ok("git_show", {{"repo_path", dir}, {"revision", "HEAD"}});
  const std::string repr_sha = "Commit: '" + second + "'\n";
  EXPECT_EQ(today.substr(0, repr_sha.size()), repr_sha);
  EXPECT_EQ(show.substr(show.find("\n---")), today.substr(today.find("\n---")));
}

// Tag 2025.7.1, server.py git_log: repr() of hexsha, author and message
// (since c53b5303), no start_timestamp / end_timestamp (09adff0b came
// later): such arguments are not read, the whole history is listed.
TEST_F(VariantTest, LogIn2025_7_1IgnoresTimestamps) {
  std::string dir = Scenario();
  Use("2025.7.1");
  const std::string second = Head(dir), first = Head(dir, "HEAD~1");
  const std::string want =
      "Commit history:\nCommit: '" + second +
      "'\nAuthor: <git.Actor \"Ann Author <ann@example.com>\">\nDate: 2023-11-14 18:13:20-05:00\n"
      "Message: \"Add 'notes'\\n\"\n\nCommit: '" +
      first +
      "'\nAuthor: <git.Actor \"Ann Author <ann@example.com>\">\nDate: 2023-11-14 23:13:20+01:00\n"
      "Message: 'Initial commit\\n'\n";
  EXPECT_EQ(Ok("git_log", {{"repo_path", dir}}), want);
  EXPECT_EQ(Ok("git_log", {{"repo_path", dir}, {"start_timestamp", "2099-01-01"}}), want);
  // Today's server filters by date.
  Use("");
  EXPECT_EQ(Ok("git_log", {{"repo_path", dir}, {"start_timestamp", "2099-01-01"}}),
            "Commit history:\n");
}

// Tag 2025.1.14, server.py git_diff_unstaged / git_diff: repo.git.diff()
// without --unified (a context_lines argument is not read): git's 3 lines.
TEST_F(VariantTest, NoContextLinesIn2025_1_14) {
  std::string dir = Scenario();
  Use("2025.1.14");
  const std::string index = "index " + Git(dir, {"rev-parse", "--short=7", "HEAD:notes.txt"}) +
                            ".." + Git(dir, {"hash-object", "notes.txt"}).substr(0, 7) +
                            " 100644\n";
  const std::string diff =
      "diff --git a/notes.txt b/notes.txt\n" + index +
      "--- a/notes.txt\n"
      "+++ b/notes.txt\n@@ -2,7 +2,7 @@ n1\n n2\n n3\n n4\n-n5\n+FIVE\n n6\n n7\n n8";
  EXPECT_EQ(Ok("git_diff_unstaged", {{"repo_path", dir}, {"context_lines", 0}}),
            "Unstaged changes:\n" + diff);
  // git_diff(repo, target) → repo.git.diff(target): the cmdline has no --unified.
  EXPECT_EQ(Err("git_diff", {{"repo_path", dir}, {"target", "nope"}}),
            "Cmd('git') failed due to: exit code(128)\n  cmdline: git diff nope\n  stderr: 'fatal: "
            "ambiguous "
            "argument 'nope': unknown revision or path not in the working tree.\nUse '--' to "
            "separate paths from "
            "revisions, like this:\n'git <command> [<revision>...] -- [<file>...]''");
  Use("2025.7.1");
  EXPECT_EQ(Ok("git_diff_unstaged", {{"repo_path", dir}, {"context_lines", 0}}),
            "Unstaged changes:\ndiff --git a/notes.txt b/notes.txt\n" + index +
                "--- a/notes.txt\n"
                "+++ b/notes.txt\n@@ -5 +5 @@ n4\n-n5\n+FIVE");
}

// Before merge 9e5d5b8e (2025.12.17; so in 2025.7.1 and klavis) git_diff and
// git_checkout pass their argument to git unchecked by rev_parse: git
// decides, a file name is a path, an unknown name is git's error.
TEST_F(VariantTest, DiffAndCheckoutWithoutRevParse) {
  std::string dir = Scenario();
  Use("klavis");
  EXPECT_EQ(Err("git_diff", {{"repo_path", dir}, {"target", "nope"}}),
            "Cmd('git') failed due to: exit code(128)\n  cmdline: git diff --unified=3 nope\n  "
            "stderr: 'fatal: "
            "ambiguous argument 'nope': unknown revision or path not in the working tree.\nUse "
            "'--' to separate paths "
            "from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]''");
  EXPECT_EQ(Ok("git_diff", {{"repo_path", dir}, {"target", "README.md"}}),
            "Diff with README.md:\n");
  EXPECT_EQ(Err("git_checkout", {{"repo_path", dir}, {"branch_name", "nope"}}),
            "Cmd('git') failed due to: exit code(1)\n  cmdline: git checkout nope\n  stderr: "
            "'error: pathspec 'nope' "
            "did not match any file(s) known to git'");
  // A path: git checkout restores it from the index; upstream's text is the same.
  EXPECT_EQ(Ok("git_checkout", {{"repo_path", dir}, {"branch_name", "notes.txt"}}),
            "Switched to branch 'notes.txt'");
  EXPECT_EQ(Read("repo/notes.txt").substr(0, 15), "n1\nn2\nn3\nn4\nn5\n");
  // Kept in every variant (deliberate): a value git would read as an option.
  EXPECT_EQ(Err("git_checkout", {{"repo_path", dir}, {"branch_name", "-f"}}),
            "Ref 'Invalid branch name: '-f' - cannot start with '-'' did not resolve to an object");
  Use("");
  EXPECT_EQ(Err("git_diff", {{"repo_path", dir}, {"target", "nope"}}),
            "Ref 'nope' did not resolve to an object");
}

// Before ae40ec23 (2026.3.15) git_show, git_create_branch and git_branch
// have no '-' guard: the value reaches GitPython's rev_parse, the ref file
// name, or git as the argument of --contains.
TEST_F(VariantTest, NoLateDashGuards) {
  std::string dir = Scenario();
  Use("klavis");
  // Repo.commit(rev) = rev_parse(rev + "^0") → name_to_object: BadName(name).
  EXPECT_EQ(Err("git_show", {{"repo_path", dir}, {"revision", "-x"}}),
            "Ref '-x' did not resolve to an object");
  EXPECT_EQ(Ok("git_create_branch", {{"repo_path", dir}, {"branch_name", "-dash"}}),
            "Created branch '-dash' from 'main'");
  EXPECT_EQ(Git(dir, {"rev-parse", "refs/heads/-dash"}), Head(dir));
  // repo.git.branch(None, "--contains", "-x", None)
  EXPECT_EQ(Err("git_branch", {{"repo_path", dir}, {"branch_type", "local"}, {"contains", "-x"}}),
            "Cmd('git') failed due to: exit code(129)\n  cmdline: git branch --contains -x\n  "
            "stderr: 'error: "
            "malformed object name -x'");
  Use("");
  EXPECT_EQ(Err("git_show", {{"repo_path", dir}, {"revision", "-x"}}),
            "Ref 'Invalid revision: '-x' - cannot start with '-'' did not resolve to an object");
}

// git_add before db960508 (2025.12.29): repo.index.add(files) (GitPython
// 3.1.43 index/base.py add → _to_relative_path, _entries_for_paths,
// _store_path): no .gitignore, absolute paths must start with the work
// tree, a missing file is lstat's OSError. ["."]: index.add too in 2025.1.14
// and 2025.7.1; `git add .` in klavis (a67e3b0a).
TEST_F(VariantTest, AddThroughTheIndex) {
  std::string dir = Scenario();
  Use("2025.7.1");
  EXPECT_EQ(Err("git_add", {{"repo_path", dir}, {"files", {"notes.txt", "missing.txt"}}}),
            "[Errno 2] No such file or directory: 'missing.txt'");
  EXPECT_EQ(Staged(dir), "");
  EXPECT_EQ(Err("git_add", {{"repo_path", dir}, {"files", {root_ + "/file.txt"}}}),
            "Absolute path '" + root_ + "/file.txt' is not in git repository at '" + dir + "'");
  EXPECT_EQ(Ok("git_add", {{"repo_path", dir}, {"files", {"debug.log", dir + "/notes.txt"}}}),
            "Files staged successfully");
  EXPECT_EQ(Staged(dir), "debug.log\nnotes.txt");
  Git(dir, {"reset", "-q"});
  EXPECT_EQ(Ok("git_add", {{"repo_path", dir}, {"files", {"."}}}), "Files staged successfully");
  EXPECT_EQ(Staged(dir), "debug.log\nnotes.txt");
  Git(dir, {"reset", "-q"});
  Use("klavis");
  EXPECT_EQ(Ok("git_add", {{"repo_path", dir}, {"files", {"."}}}), "Files staged successfully");
  EXPECT_EQ(Staged(dir), "notes.txt");
  EXPECT_EQ(Err("git_add", {{"repo_path", dir}, {"files", {"missing.txt"}}}),
            "[Errno 2] No such file or directory: 'missing.txt'");
  Use("");
  EXPECT_EQ(Err("git_add", {{"repo_path", dir}, {"files", {"missing.txt"}}}),
            "Cmd('git') failed due to: exit code(128)\n  cmdline: git add -- missing.txt\n  "
            "stderr: 'fatal: pathspec "
            "'missing.txt' did not match any files'");
}

// Tag 2025.7.1, server.py git_init: Repo.init(path, mkdir=True) (os.makedirs,
// `git init`), "Initialized empty Git repository in {repo.git_dir}"; any
// exception → "Error initializing repository: {e}" as a normal result.
TEST_F(VariantTest, InitIn2025_7_1) {
  Scenario();
  Use("2025.7.1");
  EXPECT_EQ(Ok("git_init", {{"repo_path", "fresh/sub/"}}),
            "Initialized empty Git repository in " + root_ + "/fresh/sub/.git");
  EXPECT_TRUE(Exists(root_ + "/fresh/sub/.git/HEAD"));
  struct stat st {};
  ASSERT_EQ(::stat((root_ + "/fresh").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0755u);
  EXPECT_EQ(Ok("git_status", {{"repo_path", root_ + "/fresh/sub"}}),
            "Repository status:\nOn branch master\n\nNo commits yet\n\nnothing to commit "
            "(create/copy files and use "
            "\"git add\" to track)");
  // An existing repository: git reinitialises, the text is GitPython's.
  EXPECT_EQ(Ok("git_init", {{"repo_path", root_ + "/repo"}}),
            "Initialized empty Git repository in " + root_ + "/repo/.git");
  EXPECT_EQ(Ok("git_init", {{"repo_path", "file.txt"}}),
            "Error initializing repository: [Errno 20] Not a directory: '" + root_ + "/file.txt'");
  EXPECT_EQ(
      Ok("git_init", {{"repo_path", "file.txt/a/b"}}),
      "Error initializing repository: [Errno 20] Not a directory: '" + root_ + "/file.txt/a'");
  // Confinement (deliberate): refused like every tool's repo_path.
  EXPECT_EQ(
      Err("git_init", {{"repo_path", outside_ + "/new"}}),
      "Repository path '" + outside_ + "/new' is outside the allowed repository '" + root_ + "'");
  EXPECT_FALSE(Exists(outside_ + "/new"));
  // Through a link inside the root that leads out: refused, nothing made.
  ASSERT_EQ(::symlink(outside_.c_str(), (root_ + "/out").c_str()), 0);
  EXPECT_EQ(Err("git_init", {{"repo_path", "out/new"}}),
            "Repository path 'out/new' is outside the allowed repository '" + root_ + "'");
  EXPECT_EQ(Err("git_init", {{"repo_path", "out"}}),
            "Repository path 'out' is outside the allowed repository '" + root_ + "'");
  EXPECT_FALSE(Exists(outside_ + "/new"));
  EXPECT_FALSE(Exists(outside_ + "/.git"));
  Use("");
  // Today's server has no git_init (the MCP core's unknown-tool error).
  EXPECT_EQ(Err("git_init", {{"repo_path", "x"}}), "MCP error -32602: Tool git_init not found");
}

}  // namespace
}  // namespace sbx::servers::git::testing
