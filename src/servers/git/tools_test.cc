// Every tool on a temporary repository, results compared exactly.
#include <fstream>
#include <regex>
#include <thread>

#include "servers/git/test_support.h"
#include "servers/test_support/tool_list.h"

namespace sbx::servers::git::testing {
namespace {

class ToolsTest : public GitTest {};

TEST_F(ToolsTest, ToolListEqualsUpstreamReference) {
  Json tools = ListTools();
  auto ref = test_support::ReadJsonFile(GIT_REFERENCE_JSON);
  if (!ref) GTEST_SKIP() << "reference not found: " << GIT_REFERENCE_JSON;
  // Exact JSON, key order included.
  ASSERT_NO_FATAL_FAILURE(test_support::ExpectToolsMatch(
      tools, (*ref)["tools"],
      {.exact = {"inputSchema", "annotations"}, .absent = {"outputSchema"}, .titled = true}));
  EXPECT_EQ(init_reply_["result"]["serverInfo"]["name"], "mcp-git");
}

TEST_F(ToolsTest, StatusCleanAndDirty) {
  std::string dir = MakeRepo();
  EXPECT_EQ(Ok("git_status", {{"repo_path", dir}}),
            "Repository status:\nOn branch main\nnothing to commit, working tree clean");
  Write("repo/README.md", "# Demo\nmore\n");
  Write("repo/new.txt", "new\n");
  EXPECT_EQ(Ok("git_status", {{"repo_path", dir}}),
            "Repository status:\nOn branch main\n"
            "Changes not staged for commit:\n"
            "  (use \"git add <file>...\" to update what will be committed)\n"
            "  (use \"git restore <file>...\" to discard changes in working directory)\n"
            "\tmodified:   README.md\n\n"
            "Untracked files:\n"
            "  (use \"git add <file>...\" to include in what will be committed)\n"
            "\tnew.txt\n\n"
            "no changes added to commit (use \"git add\" and/or \"git commit -a\")");
}

// The commit object git_commit writes: GitPython's serialization (no
// trailing newline added to the message, author = committer, local time).
TEST_F(ToolsTest, CommitWritesGitPythonsObject) {
  std::string dir = MakeRepo();
  Git(dir, {"config", "user.name", "Tess Tester"});
  Git(dir, {"config", "user.email", "tess@example.com"});
  std::string parent = Head(dir);
  Write("repo/feature.txt", "feature\n");
  Git(dir, {"add", "feature.txt"});
  std::string tree = Git(dir, {"write-tree"});
  std::string text = Ok("git_commit", {{"repo_path", dir}, {"message", "Add feature \xe2\x9c\x93\n\nBody"}});
  EXPECT_EQ(text, "Changes committed successfully with hash " + Head(dir));
  std::string raw = Git(dir, {"cat-file", "commit", "HEAD"});
  std::regex shape("tree " + tree + "\nparent " + parent +
                   "\nauthor Tess Tester <tess@example.com> (\\d+) ([+-]\\d{4})\n"
                   "committer Tess Tester <tess@example.com> \\1 \\2\n\nAdd feature \xe2\x9c\x93\n\nBody");
  EXPECT_TRUE(std::regex_match(raw, shape)) << raw;
  EXPECT_EQ(Git(dir, {"status", "--porcelain"}), "");
  // Nothing staged: still a new commit, with the same tree.
  text = Ok("git_commit", {{"repo_path", dir}, {"message", ""}});
  EXPECT_EQ(text, "Changes committed successfully with hash " + Head(dir));
  EXPECT_EQ(Git(dir, {"rev-parse", "HEAD^{tree}"}), tree);
  EXPECT_EQ(Git(dir, {"log", "-1", "--format=%B"}), "");
}

TEST_F(ToolsTest, CommitIdentityFromConfigThenSettingsThenDefault) {
  std::string dir = root_ + "/fresh";
  Git(root_, {"init", "-q", "-b", "trunk", dir});
  Write("fresh/a.txt", "a\n");
  EXPECT_EQ(Ok("git_add", {{"repo_path", dir}, {"files", {"a.txt"}}}), "Files staged successfully");
  // The first commit creates the branch HEAD names.
  std::string text = Ok("git_commit", {{"repo_path", dir}, {"message", "root"}});
  EXPECT_EQ(text, "Changes committed successfully with hash " + Head(dir));
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  std::string login = Git(dir, {"log", "-1", "--format=%an"});
  EXPECT_EQ(Git(dir, {"log", "-1", "--format=%an <%ae>|%P|%D"}), login + " <" + login + "@" + host + ">||HEAD -> trunk");
  options_.author_name = "Sandbox Agent";
  options_.author_email = "agent@sandbox.invalid";
  Restart();
  Ok("git_commit", {{"repo_path", dir}, {"message", "second"}});
  EXPECT_EQ(Git(dir, {"log", "-1", "--format=%an <%ae>|%cn <%ce>"}),
            "Sandbox Agent <agent@sandbox.invalid>|Sandbox Agent <agent@sandbox.invalid>");
  WriteAbs(home_ + "/.gitconfig", "[user]\n\tname = Global Name\n");
  Ok("git_commit", {{"repo_path", dir}, {"message", "third"}});
  EXPECT_EQ(Git(dir, {"log", "-1", "--format=%an <%ae>"}), "Global Name <agent@sandbox.invalid>");
}

TEST_F(ToolsTest, CommitWithUnmergedEntriesFails) {
  std::string dir = MakeRepo();
  Git(dir, {"checkout", "-q", "-b", "other"});
  Write("repo/README.md", "other\n");
  Git(dir, {"commit", "-q", "-am", "other"});
  Git(dir, {"checkout", "-q", "main"});
  Write("repo/README.md", "main\n");
  Git(dir, {"commit", "-q", "-am", "main"});
  std::string before = Head(dir);
  Json r = Call("git_status", {{"repo_path", dir}});  // still fine
  EXPECT_FALSE(r.value("isError", false));
  process::Spec spec;  // a conflicting merge, left unresolved
  spec.argv = {"/usr/bin/git", "merge", "other"};
  spec.env = {"PATH=/usr/bin:/bin", "HOME=" + home_, "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=A", "GIT_AUTHOR_EMAIL=a@x",
              "GIT_COMMITTER_NAME=A", "GIT_COMMITTER_EMAIL=a@x"};
  spec.cwd = dir;
  ASSERT_TRUE(process::Run(spec, {}).ok());
  std::string stage1 = Git(dir, {"rev-parse", ":1:README.md"});
  EXPECT_EQ(Err("git_commit", {{"repo_path", dir}, {"message", "m"}}), "100644 " + stage1 + " 1\tREADME.md");
  EXPECT_EQ(Head(dir), before);
  // git_reset drops the unmerged entries (the index becomes HEAD's tree).
  EXPECT_EQ(Ok("git_reset", {{"repo_path", dir}}), "All staged changes reset");
  EXPECT_EQ(Git(dir, {"ls-files", "--stage"}), "100644 " + Git(dir, {"rev-parse", "HEAD:README.md"}) + " 0\tREADME.md");
}

TEST_F(ToolsTest, AddStagesPathsGivenEveryWay) {
  std::string dir = MakeRepo();
  ASSERT_EQ(::mkdir((dir + "/sub").c_str(), 0755), 0);
  Write("repo/sub/a.txt", "a\n");
  Write("repo/b.txt", "b\n");
  Write("repo/-dash.txt", "d\n");
  ASSERT_EQ(::unlink((dir + "/README.md").c_str()), 0);
  EXPECT_EQ(Ok("git_add", {{"repo_path", dir}, {"files", {dir + "/sub/a.txt", "./b.txt", "README.md", "-dash.txt"}}}),
            "Files staged successfully");
  EXPECT_EQ(Git(dir, {"status", "--porcelain"}), "A  -dash.txt\nD  README.md\nA  b.txt\nA  sub/a.txt");
  EXPECT_EQ(Ok("git_reset", {{"repo_path", dir}}), "All staged changes reset");
  EXPECT_EQ(Git(dir, {"status", "--porcelain"}), " D README.md\n?? -dash.txt\n?? b.txt\n?? sub/");
  EXPECT_EQ(Ok("git_add", {{"repo_path", dir}, {"files", {"*.txt"}}}), "Files staged successfully");  // a git glob
  EXPECT_EQ(Git(dir, {"status", "--porcelain"}), "A  -dash.txt\n D README.md\nA  b.txt\nA  sub/a.txt");
}

TEST_F(ToolsTest, RepositoryLayouts) {
  std::string dir = MakeRepo();
  const std::string clean = "Repository status:\nOn branch main\nnothing to commit, working tree clean";
  EXPECT_EQ(Ok("git_status", {{"repo_path", "repo"}}), clean);  // relative to the workspace root
  EXPECT_EQ(Ok("git_status", {{"repo_path", dir + "/.git"}}), clean);
  ASSERT_EQ(::symlink("repo", (root_ + "/alias").c_str()), 0);
  EXPECT_EQ(Ok("git_status", {{"repo_path", root_ + "/alias"}}), clean);
  Git(root_, {"clone", "-q", "--bare", dir, root_ + "/bare.git"});
  EXPECT_EQ(Err("git_status", {{"repo_path", root_ + "/bare.git"}}),
            "Cmd('git') failed due to: exit code(128)\n  cmdline: git status\n"
            "  stderr: 'fatal: this operation must be run in a work tree'");
  EXPECT_EQ(Ok("git_branch", {{"repo_path", root_ + "/bare.git"}, {"branch_type", "local"}}), "* main");
  EXPECT_EQ(Err("git_status", {{"repo_path", dir + "/sub"}}), dir + "/sub");
  ASSERT_EQ(::mkdir((dir + "/sub").c_str(), 0755), 0);
  EXPECT_EQ(Err("git_status", {{"repo_path", dir + "/sub"}}), dir + "/sub");  // not a repository's top
}

TEST_F(ToolsTest, ConcurrentCallsOnOneRepository) {
  std::string dir = MakeRepo();
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&, t] {
      auto session = std::make_shared<mcp::Session>(server_);
      session->Handle(Json{{"jsonrpc", "2.0"}, {"id", 0}, {"method", "initialize"},
                           {"params", {{"protocolVersion", "2025-06-18"}, {"capabilities", Json::object()},
                                       {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}});
      for (int i = 0; i < 5; ++i) {
        Json req = {{"jsonrpc", "2.0"}, {"id", i + 1}, {"method", "tools/call"},
                    {"params", {{"name", t % 2 ? "git_log" : "git_status"}, {"arguments", {{"repo_path", dir}}}}}};
        auto out = session->Handle(req);
        Json r = out.call ? out.call->Run([](Json) {})["result"] : (*out.reply)["result"];
        if (r.value("isError", false)) ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST(GitOptions, FromSettings) {
  auto d = OptionsFromSettings(Json::object());
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->workspace_root, "/data");
  EXPECT_EQ(d->timeout, std::chrono::milliseconds(60'000));
  EXPECT_EQ(d->max_output_bytes, 16u << 20);
  EXPECT_EQ(d->git_binary, "/usr/bin/git");
  auto o = OptionsFromSettings(Json{{"workspace_root", "/srv/work"}, {"timeout_seconds", 2.5},
                                    {"max_output_bytes", 4096}, {"author_name", "Bot"},
                                    {"author_email", "bot@example.com"}, {"home", "/tmp/h"}, {"git_binary", "/bin/git"}});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->workspace_root, "/srv/work");
  EXPECT_EQ(o->timeout, std::chrono::milliseconds(2500));
  EXPECT_EQ(o->max_output_bytes, 4096u);
  EXPECT_EQ(o->author_name, "Bot");
  EXPECT_EQ(o->author_email, "bot@example.com");
  EXPECT_EQ(o->home, "/tmp/h");
  EXPECT_EQ(o->git_binary, "/bin/git");
  auto error = [](Json s) { return OptionsFromSettings(s).error().message; };
  EXPECT_EQ(error(Json{{"root", "/x"}}),
            "git: unknown setting 'root' (known: workspace_root, timeout_seconds, max_output_bytes, author_name, "
            "author_email, home, git_binary)");
  EXPECT_EQ(error(Json{{"workspace_root", "data"}}), "git: 'workspace_root' must be an absolute path");
  EXPECT_EQ(error(Json{{"timeout_seconds", 0}}),
            "git: 'timeout_seconds' must be a number of seconds above 0 and at most 86400");
  EXPECT_EQ(error(Json{{"max_output_bytes", 10}}), "git: 'max_output_bytes' must be an integer from 1024 to 1073741824");
  EXPECT_EQ(error(Json{{"author_name", "a\nb"}}),
            "git: 'author_name' must be a string of at most 256 characters without control characters, '<' or '>'");
  EXPECT_EQ(error(Json::array()), "git: settings must be a JSON object");
  EXPECT_EQ(OptionsFromSettings(Json{{"workspace_root", 1}}).error().code, ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace sbx::servers::git::testing
