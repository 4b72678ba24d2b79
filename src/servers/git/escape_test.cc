// Attacks on the confinement and on git itself, each attempted for real:
// repo_path and git_add paths that leave the workspace (.., absolute,
// sibling prefix, symlinks, .git files, core.worktree, a swap mid-call),
// option smuggling through revisions and names, and repository content
// that would make git run programs (hooks, fsmonitor, filters, diff
// drivers, signature checks, global config). Everything outside the root
// must be left exactly as it was, and no program may have run.
#include <dirent.h>
#include <sys/stat.h>

#include <atomic>
#include <thread>

#include "servers/git/test_support.h"

namespace sbx::servers::git::testing {
namespace {

class EscapeTest : public GitTest {
 protected:
  void SetUp() override {
    GitTest::SetUp();
    outside_repo_ = outside_ + "/orepo";
    Git(outside_, {"init", "-q", "-b", "main", outside_repo_});
    WriteAbs(outside_repo_ + "/o.txt", "outside\n");
    Git(outside_repo_, {"add", "o.txt"});
    Git(outside_repo_, {"commit", "-q", "-m", "outside"});
    WriteAbs(outside_repo_ + "/o.txt", "outside, modified\n");
    repo_ = MakeRepo();
    Git(repo_, {"config", "user.name", "T"});
    Git(repo_, {"config", "user.email", "t@example.com"});
    marker_ = outside_ + "/PWNED";
    before_ = Snapshot(outside_);
  }
  void TearDown() override {
    EXPECT_FALSE(Exists(marker_)) << "a program named by repository content ran";
    EXPECT_EQ(Snapshot(outside_), before_) << "the tree outside the workspace changed";
    GitTest::TearDown();
  }

  // Every entry below `dir`: path → content (files) / target (links) / "dir".
  static std::map<std::string, std::string> Snapshot(const std::string& dir) {
    std::map<std::string, std::string> out;
    DIR* d = ::opendir(dir.c_str());
    if (!d) return out;
    while (dirent* e = ::readdir(d)) {
      std::string name = e->d_name;
      if (name == "." || name == "..") continue;
      std::string p = dir + "/" + name;
      struct stat st {};
      ::lstat(p.c_str(), &st);
      if (S_ISDIR(st.st_mode)) {
        out[p] = "dir";
        for (auto& kv : Snapshot(p)) out.insert(kv);
      } else if (S_ISLNK(st.st_mode)) {
        char buf[4096];
        ssize_t n = ::readlink(p.c_str(), buf, sizeof buf);
        out[p] = "link:" + std::string(buf, n > 0 ? static_cast<std::size_t>(n) : 0);
      } else {
        out[p] = ReadAbs(p) + "|mode:" + std::to_string(st.st_mode);
      }
    }
    ::closedir(d);
    return out;
  }

  std::string Outside(const std::string& shown) {
    return "Repository path '" + shown + "' is outside the allowed repository '" + root_ + "'";
  }
  std::string Staged() { return Git(repo_, {"diff", "--cached", "--name-only"}); }
  void Executable(const std::string& path, const std::string& body) {
    WriteAbs(path, "#!/bin/sh\n" + body + "\n");
    ASSERT_EQ(::chmod(path.c_str(), 0755), 0);
  }

  std::string outside_repo_, repo_, marker_;
  std::map<std::string, std::string> before_;
};

TEST_F(EscapeTest, RepoPathsOutsideTheWorkspace) {
  ASSERT_EQ(::symlink(outside_repo_.c_str(), (root_ + "/link-out").c_str()), 0);
  ASSERT_EQ(::symlink("link-out", (root_ + "/chain").c_str()), 0);
  ASSERT_EQ(::symlink(outside_.c_str(), (root_ + "/link-parent").c_str()), 0);
  ASSERT_EQ(::symlink("../outside/orepo", (root_ + "/rel-out").c_str()), 0);
  ASSERT_EQ(::mkdir((root_ + "2/repo").c_str(), 0755), 0);
  const std::vector<std::pair<std::string, std::string>> attempts = {
      {outside_repo_, outside_repo_},
      {"../outside/orepo", "../outside/orepo"},
      {root_ + "/../outside/orepo", root_ + "/../outside/orepo"},
      {root_ + "2/repo", root_ + "2/repo"},
      {root_ + "2", root_ + "2"},
      {root_ + "/link-out", root_ + "/link-out"},
      {root_ + "/chain", root_ + "/chain"},
      {"link-parent/orepo", "link-parent/orepo"},
      {root_ + "/rel-out/", root_ + "/rel-out"},
      {"/", "/"},
  };
  for (const auto& [path, shown] : attempts) {
    for (const char* tool : {"git_status", "git_add", "git_commit", "git_reset", "git_checkout"}) {
      Json args = {{"repo_path", path}, {"files", {"."}}, {"message", "m"}, {"branch_name", "main"}};
      EXPECT_EQ(Err(tool, args), Outside(shown)) << tool << " " << path;
    }
  }
}

TEST_F(EscapeTest, GitFilesAndWorktreeConfigCannotLeadOut) {
  ASSERT_EQ(::mkdir((root_ + "/fake").c_str(), 0755), 0);
  Write("fake/.git", "gitdir: " + outside_repo_ + "/.git\n");
  EXPECT_EQ(Err("git_status", {{"repo_path", root_ + "/fake"}}), Outside(root_ + "/fake"));
  EXPECT_EQ(Err("git_add", {{"repo_path", root_ + "/fake"}, {"files", {"."}}}), Outside(root_ + "/fake"));
  Write("fake/.git", "gitdir: ../../outside/orepo/.git\n");
  EXPECT_EQ(Err("git_commit", {{"repo_path", root_ + "/fake"}, {"message", "m"}}), Outside(root_ + "/fake"));
  // core.worktree pointing outside: the work tree stays the repository's own.
  Git(repo_, {"config", "core.worktree", outside_repo_});
  EXPECT_EQ(Ok("git_add", {{"repo_path", repo_}, {"files", {"."}}}), "Files staged successfully");
  EXPECT_EQ(Ok("git_status", {{"repo_path", repo_}}),
            "Repository status:\nOn branch main\nnothing to commit, working tree clean");
}

TEST_F(EscapeTest, AddPathsOutsideTheRepository) {
  ASSERT_EQ(::symlink(outside_.c_str(), (repo_ + "/lnk").c_str()), 0);
  ASSERT_EQ(::symlink((outside_ + "/secret.txt").c_str(), (repo_ + "/sec").c_str()), 0);
  ASSERT_EQ(::symlink("../../outside/secret.txt", (repo_ + "/relsec").c_str()), 0);
  ASSERT_EQ(::symlink((root_ + "2").c_str(), (repo_ + "/sib").c_str()), 0);
  const std::string real = repo_;
  for (const std::string& f : std::vector<std::string>{"../../outside/secret.txt", "../README.md", outside_ + "/secret.txt",
                              root_ + "2/sibling.txt", real + "2/x", "lnk", "lnk/secret.txt", "sec", "relsec",
                              "sib/sibling.txt", "sub/../../x", real + "/../outside"}) {
    EXPECT_EQ(Err("git_add", {{"repo_path", repo_}, {"files", {"README.md", f}}}),
              "Path '" + f + "' is outside the repository '" + real + "'")
        << f;
  }
  EXPECT_EQ(Staged(), "");
}

TEST_F(EscapeTest, OptionsCannotBeSmuggled) {
  const std::string out = outside_ + "/written";
  auto bad = [](const std::string& what, const std::string& v) {
    return "Ref 'Invalid " + what + ": '" + v + "' - cannot start with '-'' did not resolve to an object";
  };
  EXPECT_EQ(Err("git_diff", {{"repo_path", repo_}, {"target", "--output=" + out}}), bad("target", "--output=" + out));
  EXPECT_EQ(Err("git_show", {{"repo_path", repo_}, {"revision", "--output=" + out}}),
            bad("revision", "--output=" + out));
  EXPECT_EQ(Err("git_checkout", {{"repo_path", repo_}, {"branch_name", "--orphan=x"}}),
            bad("branch name", "--orphan=x"));
  EXPECT_EQ(Err("git_create_branch", {{"repo_path", repo_}, {"branch_name", "-f"}}), bad("branch name", "-f"));
  EXPECT_EQ(Err("git_create_branch", {{"repo_path", repo_}, {"branch_name", "x"}, {"base_branch", "--force"}}),
            bad("base branch", "--force"));
  EXPECT_EQ(Err("git_branch", {{"repo_path", repo_}, {"branch_type", "local"}, {"contains", "--exec=id"}}),
            bad("contains value", "--exec=id"));
  EXPECT_EQ(Err("git_branch", {{"repo_path", repo_}, {"branch_type", "all"}, {"not_contains", "-D"}}),
            bad("not_contains value", "-D"));
  EXPECT_EQ(Err("git_log", {{"repo_path", repo_}, {"start_timestamp", "--output=" + out}}),
            "Invalid start_timestamp: '--output=" + out + "' - cannot start with '-'");
  EXPECT_EQ(Err("git_log", {{"repo_path", repo_}, {"end_timestamp", "-1"}}),
            "Invalid end_timestamp: '-1' - cannot start with '-'");
  // Files go after "--": an option-like name is a path that matches nothing.
  Write("repo/README.md", "changed\n");
  EXPECT_EQ(Err("git_add", {{"repo_path", repo_}, {"files", {"--all"}}}),
            "Cmd('git') failed due to: exit code(128)\n  cmdline: git add -- --all\n"
            "  stderr: 'fatal: pathspec '--all' did not match any files'");
  EXPECT_EQ(Staged(), "");
  // A timestamp is the value of --since, never an option of its own.
  EXPECT_EQ(Ok("git_log", {{"repo_path", repo_}, {"start_timestamp", "2000-01-01 --output=" + out}}).substr(0, 23),
            "Commit history:\nCommit:");
  EXPECT_FALSE(Exists(out));
}

TEST_F(EscapeTest, HooksNeverRun) {
  const std::string hook = "touch " + marker_;
  for (const char* name : {"pre-commit", "commit-msg", "post-commit", "post-checkout", "post-index-change",
                           "reference-transaction", "pre-auto-gc", "post-rewrite"})
    Executable(repo_ + "/.git/hooks/" + name, hook);
  ASSERT_EQ(::mkdir((root_ + "/hooks").c_str(), 0755), 0);
  Executable(root_ + "/hooks/post-checkout", hook);
  Executable(root_ + "/hooks/post-index-change", hook);
  Git(repo_, {"config", "core.hooksPath", root_ + "/hooks"});
  Write("repo/new.txt", "new\n");
  EXPECT_EQ(Ok("git_add", {{"repo_path", repo_}, {"files", {"new.txt"}}}), "Files staged successfully");
  EXPECT_EQ(Ok("git_commit", {{"repo_path", repo_}, {"message", "m"}}).substr(0, 40),
            "Changes committed successfully with hash");
  EXPECT_EQ(Ok("git_create_branch", {{"repo_path", repo_}, {"branch_name", "b"}}),
            "Created branch 'b' from 'main'");
  EXPECT_EQ(Ok("git_checkout", {{"repo_path", repo_}, {"branch_name", "b"}}), "Switched to branch 'b'");
  EXPECT_EQ(Ok("git_reset", {{"repo_path", repo_}}), "All staged changes reset");
  Ok("git_status", {{"repo_path", repo_}});
  EXPECT_FALSE(Exists(marker_));
  // Control: plain git does run them.
  Git(repo_, {"checkout", "-q", "main"});
  EXPECT_TRUE(Exists(marker_));
  ASSERT_EQ(::unlink(marker_.c_str()), 0);
}

TEST_F(EscapeTest, ConfigCommandsNeverRun) {
  // Content first (with plain git, before anything is armed): attributes
  // naming a filter and a diff driver, and a signed-looking commit.
  Write("repo/.gitattributes", "*.txt filter=evil diff=evil\n*.md filter=odd=name.x\n");
  Write("repo/a.txt", "one\n");
  Git(repo_, {"add", ".gitattributes", "a.txt"});
  Git(repo_, {"commit", "-q", "-m", "attrs"});
  std::string tree = Git(repo_, {"rev-parse", "HEAD^{tree}"});
  std::string signed_commit = Git(repo_, {"hash-object", "-t", "commit", "-w", "--stdin"},
                                  "tree " + tree + "\nparent " + Head(repo_) +
                                      "\nauthor A <a@x> 1700000000 +0000\ncommitter A <a@x> 1700000000 +0000\n"
                                      "gpgsig -----BEGIN PGP SIGNATURE-----\n \n junk\n -----END PGP SIGNATURE-----\n"
                                      "\nsigned\n");
  Git(repo_, {"update-ref", "HEAD", signed_commit});
  // Then every way config names a program: repository config, an include
  // only git's own reading finds (with a driver name holding '='), and the
  // global config in HOME.
  Executable(root_ + "/evil.sh", "touch " + marker_ + "; cat");
  const std::string evil = root_ + "/evil.sh";
  for (const char* key : {"core.fsmonitor", "diff.external", "diff.evil.textconv", "diff.evil.command", "gpg.program",
                          "core.pager", "core.sshCommand", "core.editor", "sequence.editor"})
    Git(repo_, {"config", key, evil});
  Git(repo_, {"config", "log.showSignature", "true"});
  Write("repo/.git/evil.inc", "[filter \"evil\"]\n\tclean = " + evil + "\n\tsmudge = " + evil +
                                  "\n\trequired = true\n[filter \"odd=name.x\"]\n\tprocess = " + evil +
                                  "\n\trequired = true\n");
  Git(repo_, {"config", "include.path", "evil.inc"});
  WriteAbs(home_ + "/.gitconfig", "[core]\n\tfsmonitor = " + evil + "\n");

  Write("repo/a.txt", "two\n");
  Write("repo/README.md", "# Demo\nchanged\n");
  const std::string readme_new = Git(repo_, {"hash-object", "--no-filters", "README.md"}).substr(0, 7);
  const std::string readme_old = Git(repo_, {"rev-parse", "--short", "HEAD:README.md"});
  const std::string a_new = Git(repo_, {"hash-object", "--no-filters", "a.txt"}).substr(0, 7);
  const std::string a_old = Git(repo_, {"rev-parse", "--short", "HEAD:a.txt"});
  EXPECT_EQ(Ok("git_diff_unstaged", {{"repo_path", repo_}, {"context_lines", 0}}),
            "Unstaged changes:\ndiff --git a/README.md b/README.md\nindex " + readme_old + ".." + readme_new +
                " 100644\n--- a/README.md\n+++ b/README.md\n@@ -1,0 +2 @@\n+changed\ndiff --git a/a.txt "
                "b/a.txt\nindex " + a_old + ".." + a_new + " 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two");
  Ok("git_status", {{"repo_path", repo_}});
  EXPECT_FALSE(Exists(marker_)) << "status";
  Ok("git_diff", {{"repo_path", repo_}, {"target", "HEAD~1"}});
  EXPECT_FALSE(Exists(marker_)) << "diff";
  EXPECT_EQ(Ok("git_log", {{"repo_path", repo_}, {"start_timestamp", "2000-01-01"}, {"max_count", 1}}),
            "Commit history:\nCommit: " + signed_commit + "\nAuthor: A\nDate: Tue Nov 14 22:13:20 2023 +0000\n"
            "Message: signed\n");
  EXPECT_EQ(Ok("git_add", {{"repo_path", repo_}, {"files", {"."}}}), "Files staged successfully");
  EXPECT_FALSE(Exists(marker_)) << "add";
  Ok("git_diff_staged", {{"repo_path", repo_}});
  Ok("git_commit", {{"repo_path", repo_}, {"message", "two"}});
  Ok("git_show", {{"repo_path", repo_}, {"revision", "HEAD"}});
  EXPECT_FALSE(Exists(marker_)) << "show";
  EXPECT_EQ(Ok("git_checkout", {{"repo_path", repo_}, {"branch_name", "HEAD~1"}}), "Switched to branch 'HEAD~1'");
  EXPECT_EQ(Read("repo/a.txt"), "one\n");
  EXPECT_FALSE(Exists(marker_));
  // Control: plain git runs them.
  Git(repo_, {"log", "-1", signed_commit});
  EXPECT_TRUE(Exists(marker_));
  ASSERT_EQ(::unlink(marker_.c_str()), 0);
}

// The repository directory swapped for a link to the outside repository
// while calls run: each call works on the directory it checked, or fails.
TEST_F(EscapeTest, SwapMidCallStaysInside) {
  const std::string hold = root_ + "/repo.hold";
  std::atomic<bool> stop{false};
  std::thread swapper([&] {
    while (!stop.load()) {
      if (::rename(repo_.c_str(), hold.c_str()) != 0) continue;
      (void)::symlink(outside_repo_.c_str(), repo_.c_str());
      std::this_thread::yield();
      (void)::unlink(repo_.c_str());
      (void)::rename(hold.c_str(), repo_.c_str());
    }
  });
  for (int i = 0; i < 40; ++i) {
    Json r = Call("git_add", {{"repo_path", repo_}, {"files", {"."}}});
    std::string text = r["content"][0]["text"];
    if (r.value("isError", false)) {
      EXPECT_TRUE(text == Outside(repo_) || text == repo_ || text.rfind("Cmd('git') failed", 0) == 0) << text;
    } else {
      EXPECT_EQ(text, "Files staged successfully");
    }
    Call("git_commit", {{"repo_path", repo_}, {"message", "m"}});
  }
  stop = true;
  swapper.join();
}

TEST_F(EscapeTest, TimeoutStopsGit) {
  Executable(base_ + "/slowgit", "sleep 30");
  options_.git_binary = base_ + "/slowgit";
  options_.timeout = std::chrono::milliseconds(300);
  Restart();
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(Err("git_status", {{"repo_path", repo_}}),
            "git config did not finish within 0.3 seconds (the server's timeout_seconds setting) and was stopped");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

TEST_F(EscapeTest, OutputIsBounded) {
  options_.max_output_bytes = 1024;
  Restart();
  for (int i = 0; i < 100; ++i) Write("repo/untracked-file-with-a-long-name-" + std::to_string(i) + ".txt", "x");
  std::string text = Ok("git_status", {{"repo_path", repo_}});
  const std::string note = "\n[output truncated: git printed more than 1024 bytes (the server's max_output_bytes setting)]";
  const std::string head = "Repository status:\nOn branch main\n";
  ASSERT_GT(text.size(), head.size() + note.size());
  EXPECT_EQ(text.substr(0, head.size()), head);
  EXPECT_EQ(text.substr(text.size() - note.size()), note);
  // 1024 bytes of git's output (one fewer when the cut falls after a newline, stripped as upstream strips one)
  std::size_t kept = text.size() - std::string("Repository status:\n").size() - note.size();
  EXPECT_TRUE(kept == 1024 || kept == 1023) << kept;
}

}  // namespace
}  // namespace sbx::servers::git::testing
